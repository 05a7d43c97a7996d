#include "FallbackJsonHighlighter.h"
#include "JsonHighlighter.h"

#include <QPalette>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

#include <algorithm>
#include <cmath>

using dsw::JsonHighlighter;

namespace {

// Line 1 holds a key and a number, line 2 a string value.
const QString kJson = QStringLiteral("{\n  \"stage\": 2,\n  \"device\": \"cpu\",\n  \"enabled\": true\n}");

QPalette makePalette(const QColor& window, const QColor& base, const QColor& text)
{
    QPalette palette(window, window); // Link and LinkVisited keep Qt's defaults (blue, magenta)
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::WindowText, text);
    return palette;
}

QPalette lightPalette() { return makePalette(QColor(239, 239, 239), QColor(255, 255, 255), QColor(20, 20, 20)); }
QPalette darkPalette() { return makePalette(QColor(49, 54, 59), QColor(35, 38, 41), QColor(239, 240, 241)); }

// Foreground applied at `needle` on line `lineNumber`; invalid when that text has no format.
QColor foregroundAt(const QTextDocument& document, int lineNumber, const QString& needle)
{
    const QTextBlock block = document.findBlockByLineNumber(lineNumber);
    const int column = int(block.text().indexOf(needle));
    const auto ranges = block.layout()->formats();
    const auto range = std::find_if(ranges.begin(), ranges.end(), [column](const QTextLayout::FormatRange& r) {
        return r.start <= column && column < r.start + r.length;
    });
    if (range == ranges.end() || range->format.foreground().style() == Qt::NoBrush)
        return {};
    return range->format.foreground().color();
}

// WCAG contrast ratio between two colours (1 to 21).
double contrast(const QColor& a, const QColor& b)
{
    const auto luminance = [](const QColor& c) {
        const auto linear = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
    };
    const auto [darker, lighter] = std::minmax({luminance(a), luminance(b)}); // by value: no dangling references
    return (lighter + 0.05) / (darker + 0.05);
}

} // namespace

class TestJsonHighlighter : public QObject {
    Q_OBJECT

private slots:
    void keysStringsAndNumbersDiffer();
    void darkPaletteChangesKeyColourAndKeepsContrast();
    void backendNameMatchesBuild();
};

void TestJsonHighlighter::keysStringsAndNumbersDiffer()
{
    QTextDocument document;
    auto* highlighter = new JsonHighlighter(&document);
    document.setPlainText(kJson);
    highlighter->followPalette(lightPalette()); // rehighlights now, without waiting for the event loop

    const QColor key = foregroundAt(document, 1, QStringLiteral("stage"));
    const QColor number = foregroundAt(document, 1, QStringLiteral("2"));
    const QColor string = foregroundAt(document, 2, QStringLiteral("cpu"));
    const QColor text = lightPalette().color(QPalette::Text);
    for (const QColor& color : {key, number, string}) {
        QVERIFY(color.isValid());
        QVERIFY(color != text);
    }
    QVERIFY(key != string);
    QVERIFY(key != number);
    QVERIFY(string != number);
}

void TestJsonHighlighter::darkPaletteChangesKeyColourAndKeepsContrast()
{
    QTextDocument document;
    auto* highlighter = new JsonHighlighter(&document);
    document.setPlainText(kJson);

    highlighter->followPalette(lightPalette());
    const QColor lightKey = foregroundAt(document, 1, QStringLiteral("stage"));
    highlighter->followPalette(darkPalette());
    const QColor darkKey = foregroundAt(document, 1, QStringLiteral("stage"));

    QVERIFY(lightKey.isValid());
    QVERIFY(darkKey.isValid());
    QVERIFY(lightKey != darkKey);
    // 3:1 is WCAG's minimum for large text; the built-in colours aim for 4.5:1.
    QCOMPARE_GE(contrast(lightKey, lightPalette().color(QPalette::Base)), 3.0);
    QCOMPARE_GE(contrast(darkKey, darkPalette().color(QPalette::Base)), 3.0);
    QVERIFY(darkKey.lightness() > lightKey.lightness());
}

void TestJsonHighlighter::backendNameMatchesBuild()
{
    QTextDocument document;
    const auto* highlighter = new JsonHighlighter(&document);
    const auto* backend = highlighter->findChild<QSyntaxHighlighter*>();
    QVERIFY(backend);

    if (qobject_cast<const dsw::FallbackJsonHighlighter*>(backend)) {
        QCOMPARE(highlighter->backendName(), QStringLiteral("built-in"));
    } else {
        QVERIFY(backend->inherits("KSyntaxHighlighting::SyntaxHighlighter"));
        QCOMPARE(highlighter->backendName(), QStringLiteral("KSyntaxHighlighting"));
    }
}

QTEST_MAIN(TestJsonHighlighter)
#include "TestJsonHighlighter.moc"
