// Exercises ui/KSyntaxJsonHighlighter.cpp built against Qt 5 + KF5 (see CMakeLists.txt).
#include "KSyntaxJsonHighlighter.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Theme>

#include <QPalette>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

#include <algorithm>

using dsw::KSyntaxJsonHighlighter;
using KSyntaxHighlighting::Theme;

namespace {

// Line 1 holds a key and a number, line 2 a string value.
const QString kJson = QStringLiteral("{\n  \"stage\": 2,\n  \"device\": \"cpu\",\n  \"enabled\": true\n}");

QPalette makePalette(const QColor& window, const QColor& base, const QColor& text)
{
    QPalette palette(window, window);
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

bool isDark(const Theme& theme) { return QColor(theme.editorColor(Theme::BackgroundColor)).lightness() < 128; }

} // namespace

class TestKSyntaxCompat : public QObject {
    Q_OBJECT

private slots:
    void findsJsonDefinition();
    void keysStringsAndNumbersGetFormats();
    void paletteSelectsLightOrDarkTheme();
};

void TestKSyntaxCompat::findsJsonDefinition()
{
    QTextDocument document;
    const auto* highlighter = new KSyntaxJsonHighlighter(&document);
    QVERIFY(highlighter->definition().isValid());
    QCOMPARE(highlighter->definition().name(), QStringLiteral("JSON"));
    QVERIFY(highlighter->theme().isValid());
}

void TestKSyntaxCompat::keysStringsAndNumbersGetFormats()
{
    QTextDocument document;
    auto* highlighter = new KSyntaxJsonHighlighter(&document);
    document.setPlainText(kJson);
    highlighter->setPalette(lightPalette()); // rehighlights now, without waiting for the event loop

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

void TestKSyntaxCompat::paletteSelectsLightOrDarkTheme()
{
    QTextDocument document;
    auto* highlighter = new KSyntaxJsonHighlighter(&document);
    document.setPlainText(kJson);

    highlighter->setPalette(darkPalette());
    QVERIFY(isDark(highlighter->theme()));
    const QColor darkKey = foregroundAt(document, 1, QStringLiteral("stage"));

    highlighter->setPalette(lightPalette());
    QVERIFY(!isDark(highlighter->theme()));
    const QColor lightKey = foregroundAt(document, 1, QStringLiteral("stage"));

    QVERIFY(darkKey.isValid());
    QVERIFY(lightKey.isValid());
    QVERIFY(darkKey != lightKey);
}

QTEST_MAIN(TestKSyntaxCompat)
#include "TestKSyntaxCompat.moc"
