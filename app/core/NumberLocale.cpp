#include "NumberLocale.h"

#include <clocale>

namespace dsw {

void useClassicNumberFormat() { std::setlocale(LC_NUMERIC, "C"); }

} // namespace dsw
