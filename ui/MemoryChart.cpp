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
    auto* states = new QBarSet(tr("Model states"));
    auto* activations = new QBarSet(tr("Activations"));
    QStringList categories;
    for (const auto& row : zero->details.at("stage_table")) {
        categories << QString::number(row.at("stage").get<int>());
        *states << row.at("model_states_bytes").get<double>() / kGiB;
        *activations << row.value("activations_bytes", 0.0) / kGiB;
    }
    const auto& rec = zero->details.at("recommended");
    categories << tr("chosen");
    *states << rec.at("gpu_model_states_bytes").get<double>() / kGiB;
    *activations << rec.at("activations_bytes").get<double>() / kGiB;

    auto* series = new QStackedBarSeries();
    series->append(states);
    series->append(activations);
    chart->addSeries(series);

    const double capacity = zero->details.at("gpu_capacity_bytes").get<double>() / kGiB;
    auto* line = new QLineSeries();
    line->setName(tr("Usable capacity"));
    const double usable = zero->details.at("gpu_usable_bytes").get<double>() / kGiB;
    line->append(-0.5, usable);
    line->append(categories.size() - 0.5, usable);
    chart->addSeries(line);

    auto* axisX = new QBarCategoryAxis();
    axisX->append(categories);
    axisX->setTitleText(tr("ZeRO stage (no offload)"));
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
    auto* lineX = new QValueAxis();
    lineX->setRange(-0.5, categories.size() - 0.5);
    lineX->setVisible(false);
    chart->addAxis(lineX, Qt::AlignBottom);
    line->attachAxis(lineX);
    auto* axisY = new QValueAxis();
    double top = capacity * 1.2;
    for (int i = 0; i < states->count(); ++i)
        top = std::max(top, states->at(i) + activations->at(i));
    axisY->setRange(0, std::min(top, capacity * 4));
    axisY->setTitleText(tr("GiB"));
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    line->attachAxis(axisY);
    QChart* old = this->chart();
    setChart(chart);
    delete old;
}

} // namespace dsw
