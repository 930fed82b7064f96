// RequestScanner: the listener's copy of QtHttpServer 6.4's request framing, which decides
// from the header block whether a request may be read at all.

#include "service/http/requestscanner.h"

#include <QTest>

using namespace MemoryGraph;

namespace {

constexpr qint64 kMaxHeader = 256;
constexpr qint64 kMaxBody = 100;

RequestScanner scanner()
{
    return RequestScanner({kMaxHeader, kMaxBody});
}

QByteArray post(const QByteArray &body, const QByteArray &extra = {})
{
    return "POST /v1/memory/write HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra
           + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

/// A request whose header block is exactly `size` bytes.
QByteArray getWithHeadOf(qsizetype size)
{
    const QByteArray start = "GET /health HTTP/1.1\r\nX-Pad: ";
    const QByteArray end = "\r\n\r\n";
    return start + QByteArray(size - start.size() - end.size(), 'p') + end;
}

} // namespace

class tst_HttpRequestScanner : public QObject
{
    Q_OBJECT

private slots:
    void followsRequestsHoweverTheBytesArrive();
    void phasesAndRequestLine();
    void lineEndingsQtAccepts();
    void headerBlockLimitIsInclusive();
    void bodyLimitIsInclusive();
    void bodyIsRefusedFromTheHeaderAlone();
    void bodyBytesAreNotMistakenForHeaders();
    void onePathMayTakeLargerBodies();
};

void tst_HttpRequestScanner::followsRequestsHoweverTheBytesArrive()
{
    const QByteArray stream = post("{\"a\":1}") + "\r\n" + "GET /health HTTP/1.1\r\n\r\n"
                              + post(QByteArray(kMaxBody, 'x'));
    RequestScanner whole = scanner();
    QVERIFY(!whole.feed(stream));
    RequestScanner bytewise = scanner();
    for (char c : stream)
        QVERIFY(!bytewise.feed(QByteArrayView(&c, 1)));
    for (const RequestScanner *s : {&whole, &bytewise}) {
        QCOMPARE(s->requestsStarted(), 3);
        QCOMPARE(s->bodyBytesSeen(), 7 + kMaxBody);
        QCOMPARE(s->phase(), RequestScanner::Phase::BetweenRequests);
    }
}

void tst_HttpRequestScanner::phasesAndRequestLine()
{
    RequestScanner s = scanner();
    QVERIFY(!s.feed("\r\n  ")); // whitespace between requests is skipped, as QtHttpServer does
    QCOMPARE(s.phase(), RequestScanner::Phase::BetweenRequests);
    QCOMPARE(s.requestsStarted(), 0);
    QVERIFY(!s.feed("POST /v1/x HT"));
    QCOMPARE(s.phase(), RequestScanner::Phase::Head);
    QCOMPARE(s.requestsStarted(), 1);
    QVERIFY(!s.feed("TP/1.1\r\nContent-Length:  3 \r\n\r\nab"));
    QCOMPARE(s.requestLine(), QByteArrayLiteral("POST /v1/x"));
    QCOMPARE(s.phase(), RequestScanner::Phase::Body);
    QVERIFY(!s.feed("c"));
    QCOMPARE(s.phase(), RequestScanner::Phase::BetweenRequests);
}

void tst_HttpRequestScanner::lineEndingsQtAccepts()
{
    RequestScanner lf = scanner();
    QVERIFY(!lf.feed("POST / HTTP/1.1\nContent-Length: 2\n\n{}"));
    QCOMPARE(lf.phase(), RequestScanner::Phase::BetweenRequests);
    RequestScanner noFields = scanner();
    QVERIFY(!noFields.feed("GET / HTTP/1.1\r\n\r\n"));
    QCOMPARE(noFields.phase(), RequestScanner::Phase::BetweenRequests);
}

void tst_HttpRequestScanner::headerBlockLimitIsInclusive()
{
    RequestScanner fits = scanner();
    QVERIFY(!fits.feed(getWithHeadOf(kMaxHeader)));
    QCOMPARE(fits.phase(), RequestScanner::Phase::BetweenRequests);

    RequestScanner over = scanner();
    const auto refused = over.feed(getWithHeadOf(kMaxHeader + 1));
    QVERIFY(refused);
    QCOMPARE(refused->status, 431);
    QCOMPARE(refused->code, QStringLiteral("request_header_fields_too_large"));
    QCOMPARE(refused->details.value(QStringLiteral("max_bytes")).toInteger(), kMaxHeader);
}

void tst_HttpRequestScanner::bodyLimitIsInclusive()
{
    RequestScanner fits = scanner();
    QVERIFY(!fits.feed(post(QByteArray(kMaxBody, 'x'))));
    RequestScanner over = scanner();
    const auto refused = over.feed(post(QByteArray(kMaxBody + 1, 'x')));
    QVERIFY(refused);
    QCOMPARE(refused->status, 413);
    QCOMPARE(refused->code, QStringLiteral("payload_too_large"));
    QCOMPARE(refused->details.value(QStringLiteral("max_bytes")).toInteger(), kMaxBody);
}

void tst_HttpRequestScanner::bodyIsRefusedFromTheHeaderAlone()
{
    for (const QByteArray &length :
         {QByteArrayLiteral("10737418240"), QByteArrayLiteral("99999999999999999999999999")}) {
        RequestScanner s = scanner();
        const auto refused = s.feed("POST / HTTP/1.1\r\nContent-Length: " + length + "\r\n\r\n");
        QVERIFY2(refused && refused->status == 413, length.constData());
    }
}

void tst_HttpRequestScanner::bodyBytesAreNotMistakenForHeaders()
{
    // A body that looks like an oversized header block is just a body.
    RequestScanner s = scanner();
    QVERIFY(!s.feed(post("GET / HTTP/1.1\r\nX: " + QByteArray(kMaxBody - 40, 'y'))));
    QCOMPARE(s.requestsStarted(), 1);
    QCOMPARE(s.phase(), RequestScanner::Phase::BetweenRequests);
}

void tst_HttpRequestScanner::onePathMayTakeLargerBodies()
{
    const QByteArray big(3 * kMaxBody, 'x');
    const auto to = [&big](const QByteArray &target) {
        return "POST " + target + " HTTP/1.1\r\nContent-Length: " + QByteArray::number(big.size())
               + "\r\n\r\n" + big;
    };
    RequestScanner s = scanner();
    s.allowLargerBody("/v1/admin/import", 4 * kMaxBody);
    QVERIFY(!s.feed(to("/v1/admin/import")));
    QVERIFY(!s.feed(to("/v1/admin/import?dry_run=true&scope=b")));
    const auto refused = s.feed(to("/v1/admin/importx"));
    QVERIFY(refused);
    QCOMPARE(refused->status, 413);
    QCOMPARE(refused->details.value(QStringLiteral("max_bytes")).toInteger(), kMaxBody);

    RequestScanner over = scanner();
    over.allowLargerBody("/v1/admin/import", 2 * kMaxBody);
    const auto tooBig = over.feed(to("/v1/admin/import"));
    QVERIFY(tooBig);
    QCOMPARE(tooBig->details.value(QStringLiteral("max_bytes")).toInteger(), 2 * kMaxBody);
}

QTEST_GUILESS_MAIN(tst_HttpRequestScanner)
#include "tst_httprequestscanner.moc"
