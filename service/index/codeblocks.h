#pragma once

#include <QByteArray>
#include <QtGlobal>

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

namespace MemoryGraph {

/// The VectorCodes of a scope's index backlog, back to back in blocks that never move or grow.
/// A search streams through them (several times faster than codes scattered over the heap)
/// while new codes are appended behind what it reads.
///
/// Not thread-safe: the owner changes it under its lock and hands searches a view() taken
/// under the same lock; a view stays valid and unchanged after the lock is released, and says
/// which of its slots counted when it was taken without a lookup per slot.
class CodeBlocks
{
public:
    static constexpr int kSlotsPerBlock = 1024;

    struct Block
    {
        explicit Block(qsizetype codeBytes);
        const char *code(int slot) const { return bytes.get() + slot * codeBytes; }

        qsizetype codeBytes;
        std::unique_ptr<char[]> bytes;
        std::vector<qint64> labels; ///< the label of each slot written
        /// When each slot was released (the owner's release count then); 0 while it counts.
        /// Written under the owner's lock, read by views without it.
        std::unique_ptr<std::atomic<quint64>[]> releasedAt;
        int used = 0; ///< slots written
        int live = 0; ///< slots not released
    };

    /// Where a code stands; a default Slot stands for none.
    struct Slot
    {
        const Block *block = nullptr;
        int index = -1;
        bool isNull() const { return block == nullptr; }
        bool operator==(const Slot &o) const { return block == o.block && index == o.index; }
    };

    /// Every block with the number of its slots written when the view was taken, and the
    /// releases made by then. Slots released since still read as they were.
    struct View
    {
        std::vector<std::pair<std::shared_ptr<const Block>, int>> blocks;
        quint64 releasesSeen = 0;

        /// Whether the slot's code still counted when the view was taken.
        bool counted(const Block &block, int slot) const
        {
            const quint64 released = block.releasedAt[size_t(slot)].load(std::memory_order_relaxed);
            return released == 0 || released > releasesSeen;
        }
    };

    /// Stores a code (all of one size) for the label.
    Slot append(qint64 label, const QByteArray &code);
    /// The code no longer counts (superseded, or indexed); a block left without any is freed
    /// once no view holds it.
    void release(const Slot &slot);
    void clear();
    View view() const;
    /// Bytes held by the blocks (diagnostics and tests).
    qsizetype bytesHeld() const;

private:
    std::vector<std::shared_ptr<Block>> m_blocks; ///< the last one takes the appends
    quint64 m_releases = 0;                       ///< releases so far (stamps releasedAt)
};

} // namespace MemoryGraph
