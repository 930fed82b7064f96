#include "service/api/requestfields.h"

#include "service/core/ids.h"

namespace MemoryGraph {

bool readFlag(JsonReader &r, const char *key, bool *out)
{
    std::optional<bool> b;
    if (!r.boolean(key, &b))
        return false;
    if (b)
        *out = *b;
    return true;
}

bool readInt(JsonReader &r, const char *key, int *out, int min, int max)
{
    std::optional<int> v;
    if (!r.integer(key, &v, min, max))
        return false;
    if (v)
        *out = *v;
    return true;
}

bool readUuid(JsonReader &r, const char *key, QString *out, bool required)
{
    const bool ok = required ? r.requiredString(key, out, 64) : r.string(key, out, 64);
    if (!ok)
        return false;
    if (!out->isEmpty() && !isUuid(*out))
        return r.fail(QLatin1String(key), QStringLiteral("must be a UUID"));
    *out = out->toLower();
    return true;
}

bool readCommitInput(JsonReader &r, QString *inputText, QString *inputSha256)
{
    r.string("input_text", inputText, 1 << 22);
    r.string("input_sha256", inputSha256, 64);
    if (r.ok() && inputText->isEmpty() && inputSha256->isEmpty())
        return r.fail(QStringLiteral("input_text"),
                      QStringLiteral("input_text or input_sha256 is required"));
    return r.ok();
}

} // namespace MemoryGraph
