#include "ApplicationIcon.h"

namespace dsw {

QIcon applicationIcon()
{
    QIcon icon;
    icon.addFile(QStringLiteral(":/icons/ds-wizard-48.png"), QSize(48, 48));
    icon.addFile(QStringLiteral(":/icons/ds-wizard-256.png"), QSize(256, 256));
    return icon;
}

} // namespace dsw
