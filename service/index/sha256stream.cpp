#include "service/index/sha256stream.h"

#include <openssl/evp.h>

namespace MemoryGraph {

struct Sha256Stream::Context
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    ~Context() { EVP_MD_CTX_free(md); }
};

Sha256Stream::Sha256Stream() : m_context(std::make_unique<Context>())
{
    EVP_DigestInit_ex(m_context->md, EVP_sha256(), nullptr);
}

Sha256Stream::~Sha256Stream() = default;

void Sha256Stream::addData(QByteArrayView data)
{
    if (!data.isEmpty())
        EVP_DigestUpdate(m_context->md, data.data(), size_t(data.size()));
}

QByteArray Sha256Stream::result()
{
    QByteArray digest(EVP_MAX_MD_SIZE, '\0');
    unsigned int size = 0;
    EVP_DigestFinal_ex(m_context->md, reinterpret_cast<unsigned char *>(digest.data()), &size);
    digest.resize(int(size));
    return digest;
}

} // namespace MemoryGraph
