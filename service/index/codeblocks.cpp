#include "service/index/codeblocks.h"

#include <algorithm>
#include <cstring>

namespace MemoryGraph {

CodeBlocks::Block::Block(qsizetype size)
    : codeBytes(size), bytes(new char[size_t(size) * kSlotsPerBlock]), labels(kSlotsPerBlock),
      releasedAt(std::make_unique<std::atomic<quint64>[]>(kSlotsPerBlock))
{
}

CodeBlocks::Slot CodeBlocks::append(qint64 label, const QByteArray &code)
{
    if (m_blocks.empty() || m_blocks.back()->used == kSlotsPerBlock
        || m_blocks.back()->codeBytes != code.size())
        m_blocks.push_back(std::make_shared<Block>(code.size()));
    Block &block = *m_blocks.back();
    const int index = block.used;
    std::memcpy(block.bytes.get() + index * block.codeBytes, code.constData(), size_t(code.size()));
    block.labels[size_t(index)] = label;
    ++block.used;
    ++block.live;
    return {&block, index};
}

void CodeBlocks::release(const Slot &slot)
{
    if (slot.isNull())
        return;
    const auto found = std::find_if(m_blocks.begin(), m_blocks.end(),
                                    [&slot](const auto &b) { return b.get() == slot.block; });
    if (found == m_blocks.end())
        return;
    // Relaxed is enough: a view taken later sees the stamp through the owner's lock, and one
    // taken earlier reads a stamp above its releasesSeen whenever it sees it.
    (*found)->releasedAt[size_t(slot.index)].store(++m_releases, std::memory_order_relaxed);
    // The block taking appends stays even when empty: it is about to be used.
    if (--(*found)->live == 0 && std::next(found) != m_blocks.end())
        m_blocks.erase(found);
}

void CodeBlocks::clear()
{
    m_blocks.clear();
}

CodeBlocks::View CodeBlocks::view() const
{
    View view;
    view.blocks.reserve(m_blocks.size());
    for (const auto &block : m_blocks)
        view.blocks.emplace_back(block, block->used);
    view.releasesSeen = m_releases;
    return view;
}

qsizetype CodeBlocks::bytesHeld() const
{
    qsizetype total = 0;
    for (const auto &block : m_blocks)
        total += block->codeBytes * kSlotsPerBlock;
    return total;
}

} // namespace MemoryGraph
