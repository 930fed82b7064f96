// The index backlog's code store: codes back to back in fixed blocks, views that stay as they
// were taken while appends go on, and blocks freed once nothing in them counts.

#include "service/index/codeblocks.h"

#include <QTest>

using namespace MemoryGraph;

namespace {

QByteArray codeFor(qint64 label)
{
    return QByteArray(20, char('a' + label % 26));
}

} // namespace

class tst_CodeBlocks : public QObject
{
    Q_OBJECT

private slots:
    void codesStandBackToBack();
    void aViewKeepsWhatItSaw();
    void releasedBlocksAreFreed();
    void aViewCountsTheSlotsLiveWhenTaken();
};

void tst_CodeBlocks::codesStandBackToBack()
{
    CodeBlocks codes;
    const CodeBlocks::Slot first = codes.append(1, codeFor(1));
    const CodeBlocks::Slot second = codes.append(2, codeFor(2));
    QCOMPARE(first.block, second.block);
    QCOMPARE(second.index, first.index + 1);
    QCOMPARE(second.block->code(second.index), first.block->code(first.index) + 20);
    QCOMPARE(QByteArray(second.block->code(second.index), 20), codeFor(2));
    QCOMPARE(second.block->labels[size_t(second.index)], qint64(2));
}

void tst_CodeBlocks::aViewKeepsWhatItSaw()
{
    CodeBlocks codes;
    for (qint64 label = 0; label < 10; ++label)
        codes.append(label, codeFor(label));
    const CodeBlocks::View view = codes.view();
    for (qint64 label = 10; label < CodeBlocks::kSlotsPerBlock + 10; ++label)
        codes.append(label, codeFor(label)); // fills the block, starts another
    codes.clear();
    QCOMPARE(view.blocks.size(), size_t(1));
    QCOMPARE(view.blocks.front().second, 10); // the slots written when it was taken
    for (int slot = 0; slot < 10; ++slot)
        QCOMPARE(QByteArray(view.blocks.front().first->code(slot), 20), codeFor(slot));
}

void tst_CodeBlocks::releasedBlocksAreFreed()
{
    CodeBlocks codes;
    QVector<CodeBlocks::Slot> written;
    for (qint64 label = 0; label < 2 * CodeBlocks::kSlotsPerBlock + 1; ++label)
        written.append(codes.append(label, codeFor(label)));
    QCOMPARE(codes.view().blocks.size(), size_t(3));
    const qsizetype full = codes.bytesHeld();
    // Releasing all but one code of the first block keeps it.
    for (int i = 0; i < CodeBlocks::kSlotsPerBlock - 1; ++i)
        codes.release(written.at(i));
    QCOMPARE(codes.bytesHeld(), full);
    codes.release(written.at(CodeBlocks::kSlotsPerBlock - 1));
    QCOMPARE(codes.view().blocks.size(), size_t(2));
    QCOMPARE(codes.bytesHeld(), full / 3 * 2);
    // The block taking appends stays even when nothing in it counts.
    codes.release(written.last());
    QCOMPARE(codes.view().blocks.size(), size_t(2));
}

void tst_CodeBlocks::aViewCountsTheSlotsLiveWhenTaken()
{
    CodeBlocks codes;
    const CodeBlocks::Slot early = codes.append(1, codeFor(1));
    const CodeBlocks::Slot late = codes.append(2, codeFor(2));
    const CodeBlocks::Slot kept = codes.append(3, codeFor(3));
    codes.release(early);
    const CodeBlocks::View before = codes.view();
    codes.release(late); // after the view: it still counted then
    const CodeBlocks::View after = codes.view();
    QVERIFY(!before.counted(*early.block, early.index));
    QVERIFY(before.counted(*late.block, late.index));
    QVERIFY(before.counted(*kept.block, kept.index));
    QVERIFY(!after.counted(*late.block, late.index));
    QVERIFY(after.counted(*kept.block, kept.index));
}

QTEST_GUILESS_MAIN(tst_CodeBlocks)
#include "tst_codeblocks.moc"
