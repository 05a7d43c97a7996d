#include "WhyView.h"

#include "BoundedText.h"
#include "knowledge/SourceCatalog.h"
#include "project/InputLabels.h"
#include "util/Count.h"

#include <QScrollBar>
#include <QUrl>

namespace dsw {

namespace {

// Messages may quote the user's text (a pasted error, an imported key): shown bounded.
QString esc(const std::string& s) { return boundedForDisplay(s).toHtmlEscaped(); }
// A sentence for the user: inputs named by their labels (the check's code and the sources keep the ids).
QString words(const std::string& s) { return esc(withInputLabels(s)); }
// Code snippets are longer, and quote at most a few inputs.
QString escCode(const std::string& s) { return boundedForDisplay(s, 10 * kMaxDisplayedCharacters).toHtmlEscaped(); }

QString markOf(CheckLevel level) { return QString::fromStdString(mark(level)); }

// A source tag jumps to its entry under Sources, where the title, address and quote are (the app never opens the
// network, so an address is shown to copy, not followed).
QString anchorOf(const std::string& workflow, const std::string& id)
{
    return QString::fromStdString("src-" + workflow + "-" + id).toHtmlEscaped();
}

QString sourceLink(const std::string& workflow, const std::string& id)
{
    if (id.empty())
        return {};
    if (!SourceCatalog::instance().find(id))
        return QStringLiteral(" <small>[%1]</small>").arg(esc(id));
    return QStringLiteral(" <small>[<a href=\"#%1\">%2</a>]</small>").arg(anchorOf(workflow, id), esc(id));
}

QString value(const Estimate& e)
{
    if (e.unit == "bytes")
        return QString::fromStdString(formatGiB(e.value));
    return QString::fromStdString(formatFigure(e.value)) + " " + esc(e.unit);
}

} // namespace

WhyView::WhyView(QWidget* parent)
    : QTextBrowser(parent)
{
    setObjectName(QStringLiteral("whyView"));
    setOpenExternalLinks(false); // the app never opens the network; links are shown, not followed
    setOpenLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme().isEmpty() && url.path().isEmpty()) // a source tag: "#src-…"
            scrollToAnchor(url.fragment());
    });
}

void WhyView::showPlan(const Plan& plan, const std::string& workflow)
{
    // Most edits change a number or two on another workflow's page: the same text is not laid out again.
    QString text = html(plan, workflow);
    if (text == m_shownHtml)
        return;
    m_shownHtml = std::move(text);
    const int scroll = verticalScrollBar()->value();
    setHtml(m_shownHtml);
    verticalScrollBar()->setValue(scroll);
}

QString WhyView::html(const Plan& plan, const std::string& workflow)
{
    QString h;
    for (const auto& advice : plan.workflows) {
        if (!workflow.empty() && advice.workflow != workflow)
            continue;
        h += QStringLiteral("<h3>%1</h3><p><b>%2</b></p>")
                 .arg(esc(workflowTitle(advice.workflow)), words(advice.headline));
        h += "<h4>Checks</h4><ul>";
        for (const auto& c : advice.checks)
            h += QStringLiteral("<li>%1 %2 <small><code>%3</code></small>%4</li>")
                     .arg(markOf(c.level), words(c.message), esc(c.code), sourceLink(advice.workflow, c.source));
        h += "</ul>";
        if (!advice.tradeoffs.empty()) {
            h += "<h4>Trade-offs</h4><ul>";
            for (const auto& t : advice.tradeoffs)
                h += QStringLiteral("<li><b>%1.</b> %2%3</li>")
                         .arg(esc(t.title), words(t.text), sourceLink(advice.workflow, t.source));
            h += "</ul>";
        }
        if (!advice.estimates.empty()) {
            h += "<h4>Estimates</h4><table cellspacing=4>";
            for (const auto& e : advice.estimates)
                h += QStringLiteral("<tr><td>%1</td><td align=right><b>%2</b></td><td><small>%3%4</small></td></tr>")
                         .arg(esc(e.name), value(e), esc(e.formula), sourceLink(advice.workflow, e.source));
            h += "</table>";
        }
        for (const auto& s : advice.snippets)
            h += QStringLiteral("<h4>%1 <small>(%2)</small></h4><pre>%3</pre>")
                     .arg(esc(s.title), esc(s.language), escCode(s.code));
        if (const std::vector<std::string> ids = advice.citedSources(); !ids.empty()) {
            h += "<h4>Sources</h4><ul>";
            for (const auto& id : ids)
                if (const Source* s = SourceCatalog::instance().find(id))
                    h += QStringLiteral("<li><a name=\"%1\"></a><code>%2</code> %3 <small>%4</small>%5</li>")
                             .arg(anchorOf(advice.workflow, id), esc(id), esc(s->title), esc(s->url),
                                  s->quote.empty()
                                      ? QString()
                                      : QStringLiteral("<br><small><i>%1</i></small>").arg(esc(quoteOf(id))));
            h += "</ul>";
        }
    }
    for (const auto& f : plan.findings)
        h += QStringLiteral("<p>%1 %2</p>").arg(markOf(f.level), words(f.message));
    h += QStringLiteral("<p><i>%1</i></p>").arg(esc(plan.basis));
    return h;
}

} // namespace dsw
