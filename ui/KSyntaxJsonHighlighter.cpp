#include "KSyntaxJsonHighlighter.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/Theme>

#include <QGuiApplication>
#include <QPalette>

namespace dsw {

namespace {

// One repository for the whole application, as the library recommends. It is const so that
// themeForPalette() resolves to the const overload, the only one KF6 keeps.
const KSyntaxHighlighting::Repository& repository()
{
    static const KSyntaxHighlighting::Repository instance;
    return instance;
}

} // namespace

KSyntaxJsonHighlighter::KSyntaxJsonHighlighter(QTextDocument* document)
    : KSyntaxHighlighting::SyntaxHighlighter(document)
{
    setTheme(repository().themeForPalette(QGuiApplication::palette()));
    setDefinition(repository().definitionForName(QStringLiteral("JSON")));
}

void KSyntaxJsonHighlighter::setPalette(const QPalette& palette)
{
    setTheme(repository().themeForPalette(palette));
    rehighlight(); // KF6's setTheme() only swaps the theme; the formats change on rehighlight
}

} // namespace dsw
