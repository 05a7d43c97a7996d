#include "MemoryChart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QEvent>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QTextDocumentFragment>
#include <QValueAxis>

#include <cmath>

namespace dsw {

namespace {
constexpr double kGiB = 1073741824.0;

// Stacked by component, as the step model sizes them (estimate/StepModel.h): they add up to the GPU total.
std::int64_t GpuBytes::*const kComponents[] = {&GpuBytes::params,  &GpuBytes::grads,       &GpuBytes::optimizer,
                                               &GpuBytes::buffers, &GpuBytes::activations, &GpuBytes::other};

// A round tick step (1, 2 or 5 × 10^k) giving about five ticks up to `top`: 20, 40, 60 GiB, not 41.9, 83.7.
double niceStep(double top)
{
    const double raw = top > 0 ? top / 5 : 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double norm = raw / magnitude;
    return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude;
}

// One colour per component in both themes (Qt's dark and light themes cycle different colours, so a component
// changed colour with the theme): Okabe and Ito's colour-blind-safe set, readable on a light and a dark base.
const QColor kComponentColours[] = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73),
                                    QColor(0xCC, 0x79, 0xA7), QColor(0x56, 0xB4, 0xE9), QColor(0x99, 0x99, 0x99)};

void setValues(QBarSet* set, const QList<qreal>& values)
{
    if (set->count() == values.size()) {
        for (int i = 0; i < values.size(); ++i)
            if (set->at(i) != values[i])
                set->replace(i, values[i]);
        return;
    }
    set->remove(0, set->count());
    set->append(values);
}
} // namespace

MemoryChart::MemoryChart(QWidget* parent)
    : QChartView(parent)
    , m_bars(new QStackedBarSeries())
    , m_capacity(new QLineSeries())
    , m_axisX(new QBarCategoryAxis())
    , m_lineX(new QValueAxis())
    , m_axisY(new QValueAxis())
    , m_legend(new QLabel(viewport()))
{
    setObjectName(QStringLiteral("memoryChart"));
    setRenderHint(QPainter::Antialiasing);
    QChart* chart = this->chart(); // the view's own, kept for its whole life
    chart->setTitle(tr("Per-GPU memory (GiB)"));
    chart->legend()->setVisible(false); // one row, its names cut to a letter in a narrow tab: m_legend instead
    m_legend->setObjectName(QStringLiteral("memoryChart.legend"));
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    const QString names[] = {tr("Parameters"), tr("Gradients"),   tr("Optimizer states"),
                             tr("Buffers"),    tr("Activations"), tr("CUDA context, NCCL, allocator reserve")};
    for (const QString& name : names) {
        m_sets.push_back(new QBarSet(name));
        m_bars->append(m_sets.back());
    }
    chart->addSeries(m_bars);
    m_capacity->setName(tr("Usable capacity"));
    chart->addSeries(m_capacity);
    m_axisX->setTitleText(tr("ZeRO stage"));
    chart->addAxis(m_axisX, Qt::AlignBottom);
    m_bars->attachAxis(m_axisX);
    m_lineX->setVisible(false);
    chart->addAxis(m_lineX, Qt::AlignBottom);
    m_capacity->attachAxis(m_lineX);
    m_axisY->setTitleText(tr("GiB"));
    m_axisY->setTickType(QValueAxis::TicksDynamic);
    m_axisY->setTickAnchor(0);
    m_axisY->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(m_axisY, Qt::AlignLeft);
    m_bars->attachAxis(m_axisY);
    m_capacity->attachAxis(m_axisY);
    followPalette();
}

void MemoryChart::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        followPalette();
}

void MemoryChart::followPalette()
{
    // A dark theme on a dark base; the bars keep their own colours (setTheme resets them).
    const auto theme =
        palette().color(QPalette::Base).lightness() < 128 ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart()->theme() != theme)
        chart()->setTheme(theme);
    for (std::size_t i = 0; i < m_sets.size(); ++i)
        if (m_sets[i]->color() != kComponentColours[i]) {
            m_sets[i]->setColor(kComponentColours[i]);
            m_sets[i]->setBorderColor(kComponentColours[i]);
        }
    // Dashed, in the text colour: no bar has it (the theme gave the line the next colour of its cycle, a bar's).
    QPen pen(palette().color(QPalette::Text), 2, Qt::DashLine);
    if (m_capacity->pen() != pen)
        m_capacity->setPen(pen);
    updateLegend();
}

void MemoryChart::updateLegend()
{
    QStringList entries;
    auto entry = [](const QColor& colour, const QString& mark, const QString& name) {
        return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
            .arg(colour.name(), mark, name.toHtmlEscaped());
    };
    for (QBarSet* set : m_sets)
        entries << entry(set->color(), QStringLiteral("■"), set->label());
    entries << entry(m_capacity->pen().color(), QStringLiteral("╌╌"), m_capacity->name());
    QString html = entries.join(QStringLiteral(" &nbsp; "));
    for (const QString& note : m_notes)
        html += QStringLiteral("<br>") + note.toHtmlEscaped();
    if (m_legend->text() != html) {
        m_legend->setText(html);
        placeLegend();
    }
}

void MemoryChart::placeLegend()
{
    // Below the plot, as wide as the view; the chart's bottom margin leaves it the room its wrapped lines take.
    constexpr int kPad = 8;
    const int width = std::max(1, viewport()->width() - 2 * kPad);
    const int height = m_legend->heightForWidth(width);
    m_legend->setGeometry(kPad, viewport()->height() - height - kPad, width, height);
    const QMargins margins(kPad, kPad, kPad, height + kPad);
    if (chart()->margins() != margins)
        chart()->setMargins(margins);
}

void MemoryChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    placeLegend();
}

QString MemoryChart::legendText() const { return QTextDocumentFragment::fromHtml(m_legend->text()).toPlainText(); }

void MemoryChart::showPlan(const Plan& plan)
{
    QStringList categories;
    QStringList notes;
    std::vector<QList<qreal>> values(m_sets.size());
    std::vector<double> totals;
    double usable = 0, capacity = 1;
    if (const auto& zero = plan.zero) {
        auto addBar = [&](const QString& category, const GpuBytes& row) {
            categories << category;
            for (std::size_t i = 0; i < m_sets.size(); ++i)
                values[i] << static_cast<double>(row.*kComponents[i]) / kGiB;
            totals.push_back(static_cast<double>(row.total) / kGiB);
        };
        for (const std::size_t index : zero->stageTable) {
            // A plan that offloads has a row of its own beside its stage's (a category name must be unique).
            // Short labels fit under a bar in a narrow tab; the notes below the chart say what they stand for.
            const Placement& p = zero->candidates[index].candidate.placement;
            QString category = QString::number(p.stage);
            const QString optimizer = QString::fromStdString(p.offloadOptimizer),
                          param = QString::fromStdString(p.offloadParam);
            if (optimizer != "none" || param != "none") {
                category += QStringLiteral("+off");
                for (int n = 2; categories.contains(category); ++n) // a category name must be unique
                    category = QStringLiteral("%1+off%2").arg(p.stage).arg(n);
                notes << tr("%1: ZeRO-%2, optimizer states offloaded to %3, parameters to %4")
                             .arg(category)
                             .arg(p.stage)
                             .arg(optimizer, param);
            }
            addBar(category, zero->candidates[index].gpu);
        }
        addBar(tr("plan"), zero->plan().gpu);
        notes.prepend(tr("Bars: ZeRO stages 0–3; plan: the plan the config holds"));
        capacity = plan.job.gpuCapacityBytes / kGiB;
        usable = plan.job.usableGpuBytes / kGiB;
    }
    double top = capacity * 1.2;
    for (double total : totals)
        top = std::max(top, total);
    top = std::min(top, capacity * 4);
    // A bar taller than the axis is cut: its label is marked and the notes say by how much.
    for (std::size_t i = 0; i < totals.size(); ++i)
        if (totals[i] > top) {
            notes << tr("✂ %1: clipped at %2 GiB, needs %3 GiB")
                         .arg(categories[static_cast<int>(i)])
                         .arg(top, 0, 'f', 0)
                         .arg(totals[i], 0, 'f', 0);
            categories[static_cast<int>(i)] += QStringLiteral(" ✂");
        }

    // Values and labels change in place: the chart, its series and axes stay.
    if (m_axisX->categories() != categories)
        m_axisX->setCategories(categories);
    for (std::size_t i = 0; i < m_sets.size(); ++i)
        setValues(m_sets[i], values[i]);
    const double right = categories.size() - 0.5;
    const QList<QPointF> line =
        plan.zero ? QList<QPointF>{QPointF(-0.5, usable), QPointF(right, usable)} : QList<QPointF>{};
    if (m_capacity->points() != line)
        m_capacity->replace(line);
    if (m_lineX->min() != -0.5 || m_lineX->max() != right)
        m_lineX->setRange(-0.5, right);
    if (m_axisY->min() != 0 || m_axisY->max() != top)
        m_axisY->setRange(0, top);
    if (const double step = niceStep(top); m_axisY->tickInterval() != step)
        m_axisY->setTickInterval(step);
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(m_axisX), static_cast<QAbstractAxis*>(m_axisY)})
        axis->setVisible(plan.zero.has_value());
    m_bars->setVisible(plan.zero.has_value());
    m_capacity->setVisible(plan.zero.has_value());
    m_notes = plan.zero ? notes : QStringList();
    updateLegend();
}

} // namespace dsw
