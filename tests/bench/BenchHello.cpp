// The floor for command start-up (tests/bench/run-all.sh): a QtCore-only program that starts a
// QCoreApplication and prints one line, as `ds-wizard --version` does.
#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTextStream(stdout) << "hello 0.0\n";
    return 0;
}
