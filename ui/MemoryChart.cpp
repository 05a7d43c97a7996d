#include "MemoryChart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QEvent>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

namespace dsw {

namespace {
constexpr double kGiB = 1073741824.0;

// Stacked by component, as the step model sizes them (estimate/StepModel.h): they add up to the GPU total.
const char* const kComponentKeys[] = {"params_bytes",  "grads_bytes",       "optimizer_bytes",
                                      "buffers_bytes", "activations_bytes", "other_bytes"};

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
{
    setObjectName(QStringLiteral("memoryChart"));
    setRenderHint(QPainter::Antialiasing);
    QChart* chart = this->chart(); // the view's own, kept for its whole life
    chart->setTitle(tr("Per-GPU memory (GiB)"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    const QString names[] = {tr("Parameters"), tr("Gradients"),   tr("Optimizer states"),
                             tr("Buffers"),    tr("Activations"), tr("CUDA context, NCCL, fragmentation")};
    for (const QString& name : names) {
        m_sets.push_back(new QBarSet(name));
        m_bars->append(m_sets.back());
    }
    chart->addSeries(m_bars);
    m_capacity->setName(tr("Usable capacity"));
    chart->addSeries(m_capacity);
    m_axisX->setTitleText(tr("ZeRO stage (offload optimizer/parameters where given)"));
    chart->addAxis(m_axisX, Qt::AlignBottom);
    m_bars->attachAxis(m_axisX);
    m_lineX->setVisible(false);
    chart->addAxis(m_lineX, Qt::AlignBottom);
    m_capacity->attachAxis(m_lineX);
    m_axisY->setTitleText(tr("GiB"));
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
    // A dark theme on a dark base, no colours of our own.
    const auto theme =
        palette().color(QPalette::Base).lightness() < 128 ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart()->theme() != theme)
        chart()->setTheme(theme);
}

void MemoryChart::showPlan(const Plan& plan)
{
    const Advice* zero = plan.find("zero");
    QStringList categories;
    std::vector<QList<qreal>> values(m_sets.size());
    std::vector<double> totals;
    double usable = 0, capacity = 1;
    if (zero) {
        auto addBar = [&](const QString& category, const nlohmann::ordered_json& row) {
            categories << category;
            for (std::size_t i = 0; i < m_sets.size(); ++i)
                values[i] << row.value(kComponentKeys[i], 0.0) / kGiB;
            totals.push_back(row.value("gpu_total_bytes", 0.0) / kGiB);
        };
        for (const auto& row : zero->details.at("stage_table")) {
            // A plan that offloads has a row of its own beside its stage's (a category name must be unique).
            QString category = QString::number(row.at("stage").get<int>());
            const std::string optimizer = row.value("offload_optimizer", "none"),
                              param = row.value("offload_param", "none");
            if (optimizer != "none" || param != "none")
                category += tr(" offload %1/%2").arg(QString::fromStdString(optimizer), QString::fromStdString(param));
            addBar(category, row);
        }
        addBar(tr("chosen"), zero->details.at("recommended"));
        capacity = zero->details.at("gpu_capacity_bytes").get<double>() / kGiB;
        usable = zero->details.at("gpu_usable_bytes").get<double>() / kGiB;
    }
    double top = capacity * 1.2;
    for (double total : totals)
        top = std::max(top, total);
    top = std::min(top, capacity * 4);
    // A bar taller than the axis is cut: its label says so.
    for (std::size_t i = 0; i < totals.size(); ++i)
        if (totals[i] > top)
            categories[static_cast<int>(i)] += tr(" (clipped: %1 GiB)").arg(totals[i], 0, 'f', 0);

    // Values and labels change in place: the chart, its series and axes stay.
    if (m_axisX->categories() != categories)
        m_axisX->setCategories(categories);
    for (std::size_t i = 0; i < m_sets.size(); ++i)
        setValues(m_sets[i], values[i]);
    const double right = categories.size() - 0.5;
    const QList<QPointF> line = zero ? QList<QPointF>{QPointF(-0.5, usable), QPointF(right, usable)} : QList<QPointF>{};
    if (m_capacity->points() != line)
        m_capacity->replace(line);
    if (m_lineX->min() != -0.5 || m_lineX->max() != right)
        m_lineX->setRange(-0.5, right);
    if (m_axisY->min() != 0 || m_axisY->max() != top)
        m_axisY->setRange(0, top);
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(m_axisX), static_cast<QAbstractAxis*>(m_axisY)})
        axis->setVisible(zero != nullptr);
    m_bars->setVisible(zero != nullptr);
    m_capacity->setVisible(zero != nullptr);
}

} // namespace dsw
