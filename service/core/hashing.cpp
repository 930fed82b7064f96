#include "service/core/hashing.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <charconv>
#include <cmath>
#include <cstring>
#include <openssl/evp.h>

namespace MemoryGraph {

namespace {

// The canonical form is Qt's compact JSON (QJsonObject keeps its keys sorted), and hashes of it
// are stored, so these bytes must never change. Qt's writer formats every number through its
// generic locale code, which dominated the CPU time of a write carrying embeddings; the
// writer below produces the same bytes (tests/service/tst_stablejson.cpp holds it to that)
// and leaves every case it does not handle itself to Qt.

/// Qt's own output for one value (the slow, always-right path).
void appendByQt(QByteArray &out, const QJsonValue &value)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    out.append(wrapped.constData() + 1, wrapped.size() - 2);
}

/// Shortest round-trip digits of a finite, non-zero, non-integral double laid out the way Qt's
/// QByteArray::number(d, 'g', QLocale::FloatingPointShortest) lays them out.
void appendShortest(QByteArray &out, double d)
{
    char sci[64];
    const auto res = std::to_chars(sci, sci + sizeof sci, d, std::chars_format::scientific);
    // sci: [-]D[.DDDD]e(+|-)XX
    const char *p = sci;
    const bool negative = *p == '-';
    if (negative)
        ++p;
    char digits[32];
    int length = 0;
    const char *e = p;
    for (; *e != 'e'; ++e) {
        if (*e != '.')
            digits[length++] = *e;
    }
    int exponent = 0;
    std::from_chars(e + 1 + (e[1] == '+' ? 1 : 0), res.ptr, exponent);
    const int decpt = exponent + 1;
    // Which of decimal and exponent forms is shorter (Qt's rule for the shortest form).
    int bias = 2 + 2;
    if (length <= decpt && length > 1)
        ++bias;
    else if (length == 1 && decpt <= 0)
        --bias;
    const bool useDecimal
        = decpt <= 0 ? 1 - decpt <= bias : (decpt <= length || decpt <= length + bias);
    char text[400];
    char *w = text;
    if (negative)
        *w++ = '-';
    if (!useDecimal) {
        *w++ = digits[0];
        if (length > 1) {
            *w++ = '.';
            std::memcpy(w, digits + 1, size_t(length - 1));
            w += length - 1;
        }
        const int x = decpt - 1;
        *w++ = 'e';
        *w++ = x < 0 ? '-' : '+';
        if (std::abs(x) < 10)
            *w++ = '0';
        w = std::to_chars(w, text + sizeof text, std::abs(x)).ptr;
    } else if (decpt <= 0) {
        *w++ = '0';
        *w++ = '.';
        for (int z = decpt; z < 0; ++z)
            *w++ = '0';
        std::memcpy(w, digits, size_t(length));
        w += length;
    } else if (decpt >= length) {
        std::memcpy(w, digits, size_t(length));
        w += length;
        for (int z = length; z < decpt; ++z)
            *w++ = '0';
    } else {
        std::memcpy(w, digits, size_t(decpt));
        w += decpt;
        *w++ = '.';
        std::memcpy(w, digits + decpt, size_t(length - decpt));
        w += length - decpt;
    }
    out.append(text, w - text);
}

void appendValue(QByteArray &out, const QJsonValue &value);

/// A string made of printable ASCII needing no escape is written as is; anything else by Qt.
void appendString(QByteArray &out, const QString &text)
{
    for (QChar c : text) {
        const char16_t u = c.unicode();
        if (u < 0x20 || u >= 0x7f || u == u'"' || u == u'\\') {
            appendByQt(out, QJsonValue(text));
            return;
        }
    }
    out.append('"');
    out.append(text.toLatin1());
    out.append('"');
}

void appendNumber(QByteArray &out, const QJsonValue &value)
{
    const double d = value.toDouble();
    // Integral values may be stored as integers, which Qt writes differently: leave them to it.
    if (!std::isfinite(d) || d == std::trunc(d)) {
        appendByQt(out, value);
        return;
    }
    appendShortest(out, d);
}

void appendValue(QByteArray &out, const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Object: {
        const QJsonObject o = value.toObject();
        out.append('{');
        bool first = true;
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
            if (!first)
                out.append(',');
            first = false;
            appendString(out, it.key());
            out.append(':');
            appendValue(out, it.value());
        }
        out.append('}');
        return;
    }
    case QJsonValue::Array: {
        const QJsonArray a = value.toArray();
        out.append('[');
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (i > 0)
                out.append(',');
            appendValue(out, a.at(i));
        }
        out.append(']');
        return;
    }
    case QJsonValue::String: appendString(out, value.toString()); return;
    case QJsonValue::Double: appendNumber(out, value); return;
    default: appendByQt(out, value); return;
    }
}

} // namespace

QByteArray stableJson(const QJsonValue &value)
{
    QByteArray out;
    appendValue(out, value);
    return out;
}

QString sha256Hex(const QByteArray &bytes)
{
    // OpenSSL uses the CPU's SHA extensions (about 1 GB/s here against QCryptographicHash's
    // 130 MB/s); every write hashes its whole body, embeddings included.
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(bytes.constData(), size_t(bytes.size()), digest, &size, EVP_sha256(), nullptr)
        != 1)
        return QString::fromLatin1(
            QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    return QString::fromLatin1(
        QByteArray::fromRawData(reinterpret_cast<const char *>(digest), int(size)).toHex());
}

bool isSha256Hex(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^[0-9a-fA-F]{64}$"));
    return re.match(text).hasMatch();
}

} // namespace MemoryGraph
