#include "MemoryChart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

namespace dsw {

namespace {
constexpr double kGiB = 1073741824.0;
}

MemoryChart::MemoryChart(QWidget* parent)
    : QChartView(parent)
{
    setObjectName(QStringLiteral("memoryChart"));
    setRenderHint(QPainter::Antialiasing);
}

void MemoryChart::showPlan(const Plan& plan)
{
    const Advice* zero = plan.find("zero");
    auto* chart = new QChart();
    chart->setTitle(tr("Per-GPU memory (GiB)"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    // Follow the palette: a dark theme on a dark base, no colours of our own.
    chart->setTheme(palette().color(QPalette::Base).lightness() < 128 ? QChart::ChartThemeDark
                                                                      : QChart::ChartThemeLight);
    if (!zero) {
        setChart(chart);
        return;
    }
    // Stacked by component, as the step model sizes them (estimate/StepModel.h): they add up to the GPU total.
    const std::pair<const char*, QString> components[] = {
        {"params_bytes", tr("Parameters")},          {"grads_bytes", tr("Gradients")},
        {"optimizer_bytes", tr("Optimizer states")}, {"buffers_bytes", tr("Buffers")},
        {"activations_bytes", tr("Activations")},    {"other_bytes", tr("CUDA context, NCCL, fragmentation")}};
    std::vector<QBarSet*> sets;
    for (const auto& [key, name] : components)
        sets.push_back(new QBarSet(name));
    QStringList categories;
    std::vector<double> totals;
    auto addBar = [&](const QString& category, const nlohmann::ordered_json& row) {
        categories << category;
        for (std::size_t i = 0; i < sets.size(); ++i)
            *sets[i] << row.value(components[i].first, 0.0) / kGiB;
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

    auto* series = new QStackedBarSeries();
    for (QBarSet* set : sets)
        series->append(set);
    chart->addSeries(series);

    const double capacity = zero->details.at("gpu_capacity_bytes").get<double>() / kGiB;
    auto* line = new QLineSeries();
    line->setName(tr("Usable capacity"));
    const double usable = zero->details.at("gpu_usable_bytes").get<double>() / kGiB;
    line->append(-0.5, usable);
    line->append(categories.size() - 0.5, usable);
    chart->addSeries(line);

    double top = capacity * 1.2;
    for (double total : totals)
        top = std::max(top, total);
    top = std::min(top, capacity * 4);
    // A bar taller than the axis is cut: its label says so.
    for (std::size_t i = 0; i < totals.size(); ++i)
        if (totals[i] > top)
            categories[static_cast<int>(i)] += tr(" (clipped: %1 GiB)").arg(totals[i], 0, 'f', 0);
    auto* axisX = new QBarCategoryAxis();
    axisX->append(categories);
    axisX->setTitleText(tr("ZeRO stage (offload optimizer/parameters where given)"));
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
    auto* lineX = new QValueAxis();
    lineX->setRange(-0.5, categories.size() - 0.5);
    lineX->setVisible(false);
    chart->addAxis(lineX, Qt::AlignBottom);
    line->attachAxis(lineX);
    auto* axisY = new QValueAxis();
    axisY->setRange(0, top);
    axisY->setTitleText(tr("GiB"));
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    line->attachAxis(axisY);
    QChart* old = this->chart();
    setChart(chart);
    delete old;
}

} // namespace dsw
