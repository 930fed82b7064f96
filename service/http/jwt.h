#pragma once

#include "service/core/result.h"

#include <QByteArray>
#include <QJsonObject>

namespace MemoryGraph {

/// Compares two byte strings in time that depends only on their lengths, not on where they
/// first differ, so a caller cannot probe a secret byte by byte.
bool constantTimeEquals(const QByteArray &a, const QByteArray &b);

/// Verifies a compact HS256 JSON Web Token (spec §5.2) and returns its claims.
///
/// The header must name alg "HS256" exactly; the signature is an HMAC-SHA256 over
/// "<header>.<payload>" with `secret`. `exp` fails when now > exp + skew, `nbf` fails when
/// now + skew < nbf; `exp` must be present when `requireExp` is set. Every failure is a 401
/// `unauthorized` Error whose details.reason is one of: not_configured, malformed,
/// unsupported_alg, bad_signature, invalid_claims, missing_exp, expired, not_yet_valid.
/// Messages never contain the token or the secret.
Result<QJsonObject> verifyHs256Jwt(const QByteArray &token, const QByteArray &secret,
                                   qint64 nowSecs, int clockSkewSec, bool requireExp);

} // namespace MemoryGraph
