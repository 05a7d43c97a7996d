#include "JsonHighlighter.h"

#if defined(DSW_HAVE_KSYNTAXHIGHLIGHTING)
#include "KSyntaxJsonHighlighter.h"
#else
#include "FallbackJsonHighlighter.h"
#endif

#include <QTextDocument>

namespace dsw {

namespace {

#if defined(DSW_HAVE_KSYNTAXHIGHLIGHTING)
using Backend = KSyntaxJsonHighlighter;
constexpr char kBackendName[] = "KSyntaxHighlighting";
#else
using Backend = FallbackJsonHighlighter;
constexpr char kBackendName[] = "built-in";
#endif

} // namespace

JsonHighlighter::JsonHighlighter(QTextDocument* document)
    : QObject(document)
    , m_highlighter(new Backend(document))
{
    Q_ASSERT(document);
    m_highlighter->setParent(this); // deleting this object detaches the highlighting
}

void JsonHighlighter::followPalette(const QPalette& palette)
{
    static_cast<Backend*>(m_highlighter)->setPalette(palette);
}

QString JsonHighlighter::backendName() const { return QString::fromLatin1(kBackendName); }

} // namespace dsw
