// util/Indirect.h: a heap-held value that behaves as a value (SchemaKey::deprecated is one): copies are deep and
// independent, equality compares the values, empty ones are equal to each other and to no full one.
#include "util/Indirect.h"

#include <QTest>

#include <string>

using namespace dsw;

class TestIndirect : public QObject {
    Q_OBJECT
private slots:
    void emptyUntilSet()
    {
        Indirect<std::string> a;
        QVERIFY(!a);
        QVERIFY(!a.has_value());
        a = std::string("set");
        QVERIFY(a);
        QCOMPARE(*a, std::string("set"));
        QCOMPARE(a->size(), std::size_t(3));
    }
    void copiesAreDeep()
    {
        Indirect<std::string> a(std::string("one"));
        Indirect<std::string> b = a;
        *b += " changed";
        QCOMPARE(*a, std::string("one"));
        QCOMPARE(*b, std::string("one changed"));
        Indirect<std::string> c;
        c = a;
        a = std::string("two");
        QCOMPARE(*c, std::string("one"));
        c = Indirect<std::string>(); // assigning an empty one empties it
        QVERIFY(!c);
    }
    void equalityComparesValues()
    {
        const Indirect<std::string> a(std::string("x")), b(std::string("x")), c(std::string("y")), none, none2;
        QVERIFY(a == b); // different objects, same value
        QVERIFY(!(a == c));
        QVERIFY(none == none2);
        QVERIFY(!(a == none));
        QVERIFY(!(none == a));
    }
    void movesLeaveTheSourceEmpty()
    {
        Indirect<std::string> a(std::string("moved"));
        Indirect<std::string> b = std::move(a);
        QCOMPARE(*b, std::string("moved"));
        QVERIFY(!a); // NOLINT(bugprone-use-after-move): the moved-from state is part of the contract
    }
};

QTEST_APPLESS_MAIN(TestIndirect)
#include "TestIndirect.moc"
