#pragma once
#include <QString>
#include <string>

namespace dsw {

// Words, not ids, with the page as a link: a message that names an input says its label and links the step that
// asks it ("“Nodes” (in Setup)", Setup a link "field:hardware.nodes"); activating the link goes there and focuses the
// field (MainWindow::goToField). The id stays out of the words.

// The link's target for input `id`, and back (empty when `href` is not a field link).
QString fieldHref(const std::string& id);
std::string fieldFromHref(const QString& href);

// "in <a>Setup</a>" for an input asked on another step than `here`, "<a>below</a>" for one of `here`'s own; empty for
// an input that no step asks.
QString fieldPageLink(const std::string& id, const std::string& here = {});

// `text` (ids in it) as HTML: plain parts escaped, each input named by its label in quotes, followed the first time by
// its page link in brackets (square ones where the text around is already in brackets). `boundedForDisplay` applies: the text may quote a file.
QString linkedFieldText(const std::string& text, const std::string& here = {});

// The same for a line that cannot hold links (the status bar): the page named in words, “Nodes” (in Setup).
QString fieldTextWithPages(const std::string& text);

} // namespace dsw
