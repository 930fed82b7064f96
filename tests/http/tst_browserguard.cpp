// BrowserGuard::check as a pure function: the listener addresses an HTTP test cannot bind
// (another interface, IPv6, IPv4-mapped sockets) and the order of the checks.

#include "service/http/browserguard.h"

#include <QTest>

using namespace MemoryGraph;

namespace {

using Headers = QHash<QByteArray, QByteArray>;

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

ListenerEndpoint listener(const char *address, quint16 port)
{
    return {QHostAddress(QString::fromLatin1(address)), port};
}

ServiceConfig configWith(const QStringList &hosts = {}, const QStringList &origins = {})
{
    ServiceConfig config;
    config.allowedHosts = hosts;
    config.allowedOrigins = origins;
    return config;
}

/// The error code check() answers, or "ok".
QString verdict(const QString &method, const Headers &headers, const ListenerEndpoint &where,
                const ServiceConfig &config = configWith())
{
    const auto result = BrowserGuard::check(method, headers, where, config);
    return result ? s("ok") : result.error().code;
}

} // namespace

class tst_BrowserGuard : public QObject
{
    Q_OBJECT

private slots:
    void hostOnAnotherInterface_data();
    void hostOnAnotherInterface();
    void hostOnLoopbackListeners_data();
    void hostOnLoopbackListeners();
    void checksRunInOrder();
    void preflightOnlyWithOriginAndRequestMethod();
    void statusCodes();
};

void tst_BrowserGuard::hostOnAnotherInterface_data()
{
    QTest::addColumn<QByteArray>("host");
    QTest::addColumn<QString>("expected");
    QTest::newRow("address and port") << QByteArray("192.168.1.5:8787") << s("ok");
    QTest::newRow("address") << QByteArray("192.168.1.5") << s("ok");
    QTest::newRow("address, other port")
        << QByteArray("192.168.1.5:80") << s("misdirected_request");
    QTest::newRow("configured name") << QByteArray("memory.lan:8787") << s("ok");
    QTest::newRow("configured name, no port") << QByteArray("memory.lan") << s("ok");
    QTest::newRow("localhost is not this listener")
        << QByteArray("localhost:8787") << s("misdirected_request");
    QTest::newRow("127.0.0.1 is not this listener")
        << QByteArray("127.0.0.1:8787") << s("misdirected_request");
    QTest::newRow("other address") << QByteArray("192.168.1.6:8787") << s("misdirected_request");
    QTest::newRow("unknown name") << QByteArray("attacker.example:8787")
                                  << s("misdirected_request");
}

void tst_BrowserGuard::hostOnAnotherInterface()
{
    QFETCH(QByteArray, host);
    QFETCH(QString, expected);
    const ServiceConfig config = configWith({s("memory.lan")});
    QCOMPARE(verdict(s("GET"), {{"host", host}}, listener("192.168.1.5", 8787), config), expected);
    // An IPv4 connection accepted on a dual-stack socket shows up as an IPv4-mapped address.
    QCOMPARE(verdict(s("GET"), {{"host", host}}, listener("::ffff:192.168.1.5", 8787), config),
             expected);
}

void tst_BrowserGuard::hostOnLoopbackListeners_data()
{
    QTest::addColumn<QByteArray>("address");
    QTest::addColumn<QByteArray>("host");
    QTest::addColumn<QString>("expected");
    QTest::newRow("::1 listener, [::1]:port")
        << QByteArray("::1") << QByteArray("[::1]:9000") << s("ok");
    QTest::newRow("::1 listener, localhost")
        << QByteArray("::1") << QByteArray("localhost") << s("ok");
    QTest::newRow("::1 listener, [::1]:other")
        << QByteArray("::1") << QByteArray("[::1]:9001") << s("misdirected_request");
    QTest::newRow("127.0.0.2 listener, its literal")
        << QByteArray("127.0.0.2") << QByteArray("127.0.0.2:9000") << s("ok");
    QTest::newRow("127.0.0.2 listener, localhost")
        << QByteArray("127.0.0.2") << QByteArray("localhost:9000") << s("ok");
    QTest::newRow("IPv6 interface, its literal")
        << QByteArray("2001:db8::5") << QByteArray("[2001:db8::5]:9000") << s("ok");
    QTest::newRow("IPv6 interface, localhost")
        << QByteArray("2001:db8::5") << QByteArray("localhost:9000") << s("misdirected_request");
    QTest::newRow("bracket junk") << QByteArray("::1") << QByteArray("[::1]x")
                                  << s("misdirected_request");
    QTest::newRow("port out of range")
        << QByteArray("::1") << QByteArray("[::1]:99999") << s("misdirected_request");
}

void tst_BrowserGuard::hostOnLoopbackListeners()
{
    QFETCH(QByteArray, address);
    QFETCH(QByteArray, host);
    QFETCH(QString, expected);
    QCOMPARE(verdict(s("GET"), {{"host", host}}, listener(address.constData(), 9000)), expected);
}

void tst_BrowserGuard::checksRunInOrder()
{
    const ListenerEndpoint local = listener("127.0.0.1", 9000);
    const Headers everythingWrong{{"host", "attacker.example"},
                                  {"origin", "https://attacker.example"},
                                  {"content-type", "text/plain"}};
    QCOMPARE(verdict(s("POST"), everythingWrong, local), s("misdirected_request"));
    Headers originAndType = everythingWrong;
    originAndType.insert("host", "localhost:9000");
    QCOMPARE(verdict(s("POST"), originAndType, local), s("forbidden_origin"));
    Headers typeOnly = originAndType;
    typeOnly.remove("origin");
    QCOMPARE(verdict(s("POST"), typeOnly, local), s("unsupported_media_type"));
    // Content-Type matters for POST only.
    QCOMPARE(verdict(s("GET"), typeOnly, local), s("ok"));
}

void tst_BrowserGuard::preflightOnlyWithOriginAndRequestMethod()
{
    const ListenerEndpoint local = listener("127.0.0.1", 9000);
    const ServiceConfig config = configWith({}, {s("https://app.example.com")});
    const Headers preflight{{"host", "127.0.0.1:9000"},
                            {"origin", "https://app.example.com"},
                            {"access-control-request-method", "POST"}};
    const auto admitted = BrowserGuard::check(s("OPTIONS"), preflight, local, config);
    QVERIFY(admitted);
    QVERIFY(admitted.value().preflight);
    QVERIFY(!admitted.value().corsHeaders.isEmpty());

    // Without Access-Control-Request-Method it is an ordinary OPTIONS request (the router answers
    // it).
    Headers plain = preflight;
    plain.remove("access-control-request-method");
    const auto ordinary = BrowserGuard::check(s("OPTIONS"), plain, local, config);
    QVERIFY(ordinary);
    QVERIFY(!ordinary.value().preflight);

    // Configured origins are compared exactly (case aside).
    Headers upper = preflight;
    upper.insert("origin", "HTTPS://APP.EXAMPLE.COM");
    QVERIFY(BrowserGuard::check(s("OPTIONS"), upper, local, config));
    Headers trailingSlash = preflight;
    trailingSlash.insert("origin", "https://app.example.com/");
    QCOMPARE(verdict(s("OPTIONS"), trailingSlash, local, config), s("forbidden_origin"));
    // "null" is refused even when configured.
    const ServiceConfig nullConfigured = configWith({}, {s("null")});
    QCOMPARE(verdict(s("GET"), {{"host", "localhost"}, {"origin", "null"}}, local, nullConfigured),
             s("forbidden_origin"));
}

void tst_BrowserGuard::statusCodes()
{
    const ListenerEndpoint local = listener("127.0.0.1", 9000);
    QCOMPARE(BrowserGuard::check(s("GET"), {}, local, configWith()).error().status, 421);
    QCOMPARE(BrowserGuard::check(s("GET"), {{"host", "localhost"}, {"origin", "https://x.example"}},
                                 local, configWith())
                 .error()
                 .status,
             403);
    QCOMPARE(
        BrowserGuard::check(s("POST"), {{"host", "localhost"}}, local, configWith()).error().status,
        415);
}

QTEST_GUILESS_MAIN(tst_BrowserGuard)
#include "tst_browserguard.moc"
