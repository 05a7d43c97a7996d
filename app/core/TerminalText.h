#pragma once
#include <QString>

#include <string>

namespace dsw {

// User data (key names, values, paths, file contents) shown on a terminal must not drive it: control
// characters are written as visible escapes, so no escape sequence, carriage return or bidirectional
// override reaches the terminal and no one can forge an output line.
//   C0 controls and DEL -> \t \r \n or \xNN (ESC is "\x1b"); C1 controls, line separators and
//   bidirectional controls -> \uNNNN. Backslashes are left as they are.
QString terminalSafe(const QString& text);      // one line: newlines escaped too (one error is one line)
QString terminalSafeLines(const QString& text); // keeps the newlines of a multi-line text

// JSON text for a terminal: nlohmann already escapes C0 controls in strings; this escapes DEL, C1 controls,
// line separators and bidirectional controls as \uNNNN too. Still the same JSON value.
std::string jsonTerminalSafe(std::string json); // by value: returned as it is when nothing needs an escape

} // namespace dsw
