#pragma once
#include <QIcon>

namespace dsw {

// The application icon (packaging/icons/, rendered from ds-wizard.svg), built into the binary so the
// window has it whether or not the icon theme is installed.
QIcon applicationIcon();

} // namespace dsw
