#include "FieldLinks.h"

#include "BoundedText.h"
#include "Pages.h"
#include "project/InputLabels.h"

#include <QCoreApplication>
#include <algorithm>
#include <set>

namespace dsw {

namespace {
const QString kScheme = QStringLiteral("field:");

QString tr(const char* text) { return QCoreApplication::translate("FieldLinks", text); }

// How many brackets are open at the end of `text` (a page named inside brackets takes square ones).
int openBrackets(const std::string& text, int depth)
{
    for (const char c : text)
        depth = c == '(' ? depth + 1 : c == ')' ? std::max(0, depth - 1) : depth;
    return depth;
}

// " (in Setup)", or " [in Setup]" where the text around is already in brackets: never "((" or "))".
QString bracketed(const QString& inner, int depth) { return depth > 0 ? " [" + inner + "]" : " (" + inner + ")"; }

QString pageWords(const std::string& id)
{
    const std::string page = inputPage(id);
    return page.empty() ? QString() : QString::fromStdString(pageTitle(page));
}
} // namespace

QString fieldHref(const std::string& id) { return kScheme + QString::fromStdString(id); }

std::string fieldFromHref(const QString& href)
{
    return href.startsWith(kScheme) ? href.mid(kScheme.size()).toStdString() : std::string();
}

QString fieldPageLink(const std::string& id, const std::string& here)
{
    const QString page = pageWords(id);
    if (page.isEmpty())
        return {};
    const QString href = fieldHref(id).toHtmlEscaped();
    if (inputPage(id) == here)
        return QStringLiteral("<a href=\"%1\">%2</a>").arg(href, tr("below"));
    return tr("in %1").arg(QStringLiteral("<a href=\"%1\">%2</a>").arg(href, page.toHtmlEscaped()));
}

QString linkedFieldText(const std::string& text, const std::string& here)
{
    QString html;
    std::set<std::string> linked;
    int depth = 0;
    for (const LabelledPart& part : labelledParts(boundedForDisplay(text).toStdString())) {
        if (part.inputId.empty()) {
            html += QString::fromStdString(part.text).toHtmlEscaped();
            depth = openBrackets(part.text, depth);
            continue;
        }
        html += "“" + QString::fromStdString(part.text).toHtmlEscaped() + "”";
        if (const QString link = fieldPageLink(part.inputId, here);
            !link.isEmpty() && linked.insert(part.inputId).second)
            html += bracketed(link, depth);
    }
    return html;
}

QString fieldTextWithPages(const std::string& text)
{
    QString out;
    std::set<std::string> named;
    int depth = 0;
    for (const LabelledPart& part : labelledParts(boundedForDisplay(text).toStdString())) {
        if (part.inputId.empty()) {
            out += QString::fromStdString(part.text);
            depth = openBrackets(part.text, depth);
            continue;
        }
        out += "“" + QString::fromStdString(part.text) + "”";
        if (const QString page = pageWords(part.inputId); !page.isEmpty() && named.insert(part.inputId).second)
            out += bracketed(tr("in %1").arg(page), depth);
    }
    return out;
}

} // namespace dsw
