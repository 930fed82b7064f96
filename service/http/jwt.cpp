#include "service/http/jwt.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonValue>
#include <QList>
#include <QMessageAuthenticationCode>

#include <algorithm>
#include <optional>

namespace MemoryGraph {

namespace {

// Real tokens are a few hundred bytes; refusing huge ones bounds the work done for a stranger.
constexpr qsizetype kMaxTokenBytes = 16 * 1024;

Error jwtError(const QString &reason, const QString &message)
{
    return Error::make(401, QStringLiteral("unauthorized"), message,
                       {{QStringLiteral("reason"), reason}});
}

Error malformed(const QString &what)
{
    return jwtError(QStringLiteral("malformed"), QStringLiteral("malformed JWT: ") + what);
}

bool isBase64UrlChar(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
           || c == '_';
}

// JWS uses unpadded base64url. Qt's decoder is lenient about stray characters, so the alphabet
// and the length are checked here first; a length of 4n+1 can never come from an encoder.
std::optional<QByteArray> decodeSegment(const QByteArray &segment)
{
    if (segment.isEmpty() || segment.size() % 4 == 1)
        return std::nullopt;
    if (!std::all_of(segment.cbegin(), segment.cend(), isBase64UrlChar))
        return std::nullopt;
    auto decoded = QByteArray::fromBase64Encoding(
        segment, QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals
                     | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    return decoded.decoded;
}

std::optional<QJsonObject> parseObject(const QByteArray &json)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    return doc.object();
}

} // namespace

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    // Accumulate every difference instead of returning at the first one.
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return diff == 0;
}

Result<QJsonObject> verifyHs256Jwt(const QByteArray &token, const QByteArray &secret,
                                   qint64 nowSecs, int clockSkewSec, bool requireExp)
{
    // An empty key would make every HMAC forgeable by anyone, so treat it as "no JWT support".
    if (secret.isEmpty())
        return jwtError(QStringLiteral("not_configured"),
                        QStringLiteral("JWT verification is not configured"));
    if (token.isEmpty())
        return malformed(QStringLiteral("token is empty"));
    if (token.size() > kMaxTokenBytes)
        return malformed(QStringLiteral("token is too large"));

    const QList<QByteArray> parts = token.split('.');
    if (parts.size() != 3)
        return malformed(QStringLiteral("expected three dot-separated segments"));

    // Decode every segment up front: a token that is not well-formed is rejected as such,
    // whatever else is wrong with it.
    const auto headerBytes = decodeSegment(parts.at(0));
    if (!headerBytes)
        return malformed(QStringLiteral("header is not valid base64url"));
    const auto payloadBytes = decodeSegment(parts.at(1));
    if (!payloadBytes)
        return malformed(QStringLiteral("payload is not valid base64url"));
    const auto header = parseObject(*headerBytes);
    if (!header)
        return malformed(QStringLiteral("header is not a JSON object"));

    // Only HS256 is accepted; "none" and other algorithms would let a caller pick the check.
    const QJsonValue alg = header->value(QStringLiteral("alg"));
    if (!alg.isString() || alg.toString() != QLatin1String("HS256"))
        return jwtError(QStringLiteral("unsupported_alg"), QStringLiteral("JWT alg must be HS256"));
    // RFC 7515: extensions listed as critical must be understood, and none are supported.
    if (header->contains(QStringLiteral("crit")))
        return jwtError(QStringLiteral("unsupported_alg"),
                        QStringLiteral("JWT header uses unsupported critical extensions"));

    const auto signature = decodeSegment(parts.at(2));
    if (!signature)
        return malformed(QStringLiteral("signature is missing or not valid base64url"));

    // Check the signature before reading any claim so unauthenticated data is never trusted.
    const QByteArray signingInput = parts.at(0) + '.' + parts.at(1);
    const QByteArray expected
        = QMessageAuthenticationCode::hash(signingInput, secret, QCryptographicHash::Sha256);
    if (!constantTimeEquals(expected, *signature))
        return jwtError(QStringLiteral("bad_signature"),
                        QStringLiteral("JWT signature is invalid"));

    const auto payload = parseObject(*payloadBytes);
    if (!payload)
        return malformed(QStringLiteral("payload is not a JSON object"));

    const double now = double(nowSecs);
    const double skew = double(std::max(clockSkewSec, 0));

    const QJsonValue exp = payload->value(QStringLiteral("exp"));
    if (exp.isUndefined() || exp.isNull()) {
        if (requireExp)
            return jwtError(QStringLiteral("missing_exp"),
                            QStringLiteral("JWT exp claim is required"));
    } else if (!exp.isDouble()) {
        return jwtError(QStringLiteral("invalid_claims"),
                        QStringLiteral("JWT exp claim must be a number"));
    } else if (now > exp.toDouble() + skew) {
        return jwtError(QStringLiteral("expired"), QStringLiteral("JWT has expired"));
    }

    const QJsonValue nbf = payload->value(QStringLiteral("nbf"));
    if (!nbf.isUndefined() && !nbf.isNull()) {
        if (!nbf.isDouble())
            return jwtError(QStringLiteral("invalid_claims"),
                            QStringLiteral("JWT nbf claim must be a number"));
        if (now + skew < nbf.toDouble())
            return jwtError(QStringLiteral("not_yet_valid"),
                            QStringLiteral("JWT is not valid yet"));
    }

    return *payload;
}

} // namespace MemoryGraph
