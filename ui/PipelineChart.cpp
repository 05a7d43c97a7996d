#include "PipelineChart.h"

#include "util/Count.h"

#include <QPainter>

#include <algorithm>

namespace dsw {

namespace {
constexpr int kBarThickness = 12;
constexpr int kGap = 8;
constexpr int kMargin = 8;
} // namespace

PipelineChart::PipelineChart(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("pipelineChart"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
    m_placeholder = tr("No pipeline plan.");
}

namespace {

QString layerCount(int count)
{
    return count == 1 ? PipelineChart::tr("1 layer") : PipelineChart::tr("%1 layers").arg(count);
}

// What PipelineModule layers first … first + count − 1 are: "embedding + blocks 0–19", "blocks 20–39 + head", or
// "3 layers" when the layers were given as a list.
QString contents(const std::vector<PipelineLayer>& layers, int first, int count)
{
    if (layers.empty())
        return layerCount(count);
    QStringList parts;
    int firstBlock = -1, lastBlock = -1;
    bool head = false;
    for (int i = first; i < first + count && i < static_cast<int>(layers.size()); ++i) {
        const std::string& name = layers[static_cast<std::size_t>(i)].name;
        if (name == "embedding")
            parts << PipelineChart::tr("embedding");
        else if (name == "head")
            head = true;
        else if (name.rfind("block ", 0) == 0) {
            const int block = std::stoi(name.substr(6));
            if (firstBlock < 0)
                firstBlock = block;
            lastBlock = block;
        } else
            return layerCount(count);
    }
    if (firstBlock >= 0)
        parts << (firstBlock == lastBlock ? PipelineChart::tr("block %1").arg(firstBlock)
                                          : PipelineChart::tr("blocks %1–%2").arg(firstBlock).arg(lastBlock));
    if (head)
        parts << PipelineChart::tr("head");
    return parts.join(QStringLiteral(" + "));
}

} // namespace

void PipelineChart::showStages(const PipelineStages& stages, const std::string& placeholder)
{
    m_bars.clear();
    m_usableBytes = stages.usableBytes;
    if (stages.parts.empty() || stages.memoryPerStage.empty()) {
        m_placeholder = QString::fromStdString(placeholder.empty() ? "No pipeline plan." : placeholder);
    } else {
        m_placeholder.clear();
        const auto& parts = stages.parts;
        for (std::size_t s = 0; s + 1 < parts.size(); ++s) {
            const int first = parts[s];
            const int count = parts[s + 1] - first;
            const std::int64_t params = stages.paramsPerStage[s];
            const double bytes = static_cast<double>(stages.memoryPerStage[s]);
            // PipelineModule's layers include the embedding and the head: say which a range holds.
            const QString what = contents(stages.layers, first, count);
            const QString range = count == 0 ? tr("no layers")
                : count == 1                 ? tr("layer %1 (%2)").arg(first).arg(what)
                                             : tr("layers %1–%2 (%3)").arg(first).arg(first + count - 1).arg(what);
            Bar bar;
            bar.label =
                tr("Stage %1: %2, %3 parameters, %4")
                    .arg(static_cast<int>(s))
                    .arg(range, QString::fromStdString(formatCount(params)), QString::fromStdString(formatGiB(bytes)));
            bar.memoryBytes = bytes;
            bar.overCapacity = m_usableBytes > 0 && bytes > m_usableBytes;
            m_bars.push_back(bar);
        }
    }
    setAccessibleDescription(m_bars.empty() ? m_placeholder : barLabels().join(QLatin1Char('\n')));
    updateGeometry();
    update();
}

QStringList PipelineChart::barLabels() const
{
    QStringList labels;
    for (const auto& bar : m_bars)
        labels << bar.label;
    return labels;
}

bool PipelineChart::exceedsCapacity(int stage) const
{
    return stage >= 0 && stage < barCount() && m_bars[static_cast<std::size_t>(stage)].overCapacity;
}

int PipelineChart::rowHeight() const { return fontMetrics().height() + 2 + kBarThickness; }

QSize PipelineChart::sizeHint() const
{
    const int rows = std::max(1, barCount());
    return {480, 2 * kMargin + rows * rowHeight() + (rows - 1) * kGap};
}

QSize PipelineChart::minimumSizeHint() const { return {240, sizeHint().height()}; }

void PipelineChart::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    const QRect area = rect().adjusted(kMargin, kMargin, -kMargin, -kMargin);
    if (m_bars.empty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
        return;
    }
    // Lengths are memory against the larger of the usable capacity and the largest stage.
    double scale = m_usableBytes;
    for (const auto& bar : m_bars)
        scale = std::max(scale, bar.memoryBytes);
    // Each row: the label on the base colour, then the bar under it (no text over the highlight).
    const int textHeight = painter.fontMetrics().height();
    int y = area.top();
    for (const auto& bar : m_bars) {
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(QRect(area.left(), y, area.width(), textHeight), Qt::AlignVCenter | Qt::AlignLeft,
                         painter.fontMetrics().elidedText(bar.label, Qt::ElideRight, area.width()));
        const QRect track(area.left(), y + textHeight + 2, area.width(), kBarThickness);
        painter.fillRect(track, pal.color(QPalette::AlternateBase));
        const int length = scale > 0 ? static_cast<int>(area.width() * bar.memoryBytes / scale) : 0;
        // Over capacity: the same highlight colour, hatched, so no colour of our own is needed.
        painter.fillRect(
            QRect(track.left(), track.top(), std::max(1, length), kBarThickness),
            QBrush(pal.color(QPalette::Highlight), bar.overCapacity ? Qt::BDiagPattern : Qt::SolidPattern));
        y += rowHeight() + kGap;
    }
    if (m_usableBytes > 0 && scale > 0) { // the usable capacity, as a vertical rule
        const int x = area.left() + static_cast<int>(area.width() * m_usableBytes / scale);
        painter.setPen(QPen(pal.color(QPalette::WindowText), 1, Qt::DashLine));
        painter.drawLine(x, area.top(), x, y - kGap);
    }
}

} // namespace dsw
