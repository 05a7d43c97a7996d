#pragma once

namespace dsw {

// Qt applications take the user's locale for the C library (setlocale(LC_ALL, "") in QCoreApplication), so in
// a locale with a decimal comma snprintf would print "2,94 s" and strtod would read "1.5" as 1. Numbers in
// ds-wizard's text, configs and inputs are written as DeepSpeed writes them; call this right after the
// application object is made (Qt's documented remedy: LC_NUMERIC back to "C").
void useClassicNumberFormat();

} // namespace dsw
