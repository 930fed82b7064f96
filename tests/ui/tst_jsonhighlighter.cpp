#include "ui/widgets/jsonhighlighter.h"

#include <QPlainTextEdit>
#include <QSet>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

#include <algorithm>
#include <cmath>
#include <optional>

using MemoryGraph::Ui::JsonHighlighter;
using Token = JsonHighlighter::Token;

namespace {

/// The format range that starts at `start` in the block, if any.
std::optional<QTextLayout::FormatRange> rangeAt(const QTextBlock &block, int start)
{
    const QList<QTextLayout::FormatRange> ranges = block.layout()->formats();
    for (const QTextLayout::FormatRange &r : ranges) {
        if (r.start == start)
            return r;
    }
    return std::nullopt;
}

/// Whether any format range covers `position`.
bool isFormatted(const QTextBlock &block, int position)
{
    const QList<QTextLayout::FormatRange> ranges = block.layout()->formats();
    return std::any_of(ranges.cbegin(), ranges.cend(),
                       [position](const QTextLayout::FormatRange &r) {
                           return position >= r.start && position < r.start + r.length;
                       });
}

double luminance(const QColor &c)
{
    auto channel = [](double v) {
        v /= 255.0;
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue());
}

/// WCAG contrast ratio of two colours (1..21).
double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace

class tst_JsonHighlighter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tokensGetTheirFormats();
    void tokenKindsLookDifferent();
    void stringsHandleEscapesAndStayStrings();
    void unterminatedStringRunsToLineEnd();
    void multiLineDocument();
    void coloursAreReadableOnBothThemes();
    void followsTheEditorPalette();
};

void tst_JsonHighlighter::tokensGetTheirFormats()
{
    // 0         1         2         3         4         5
    // 0123456789012345678901234567890123456789012345678901234567
    // {"name": "x", "$in": [1, -2.5e3], "ok": true, "n": null}
    QTextDocument doc(
        QStringLiteral("{\"name\": \"x\", \"$in\": [1, -2.5e3], \"ok\": true, \"n\": null}"));
    JsonHighlighter highlighter(&doc);
    highlighter.rehighlight();
    const QTextBlock block = doc.firstBlock();

    struct Expected
    {
        int start;
        int length;
        Token token;
    };
    const Expected expected[] = {
        {1, 6, Token::Key},          // "name"
        {9, 3, Token::String},       // "x"
        {14, 5, Token::OperatorKey}, // "$in"
        {22, 1, Token::Number},      // 1
        {25, 6, Token::Number},      // -2.5e3
        {34, 4, Token::Key},         // "ok"
        {40, 4, Token::Literal},     // true
        {46, 3, Token::Key},         // "n"
        {51, 4, Token::Literal},     // null
    };
    for (const Expected &e : expected) {
        const auto range = rangeAt(block, e.start);
        QVERIFY2(range.has_value(), qPrintable(QStringLiteral("no format at %1").arg(e.start)));
        QCOMPARE(range->length, e.length);
        QCOMPARE(range->format.foreground().color(),
                 highlighter.format(e.token).foreground().color());
        QCOMPARE(range->format.fontWeight(), highlighter.format(e.token).fontWeight());
    }
    QCOMPARE(block.layout()->formats().size(), qsizetype(std::size(expected)));
    // Punctuation and whitespace stay in the editor's own colour.
    for (int plain : {0, 7, 8, 12, 21, 23, 31, 32, 55})
        QVERIFY2(!isFormatted(block, plain), qPrintable(QString::number(plain)));
}

void tst_JsonHighlighter::tokenKindsLookDifferent()
{
    QTextDocument doc;
    JsonHighlighter highlighter(&doc);
    for (bool dark : {false, true}) {
        highlighter.setDarkTheme(dark);
        QCOMPARE(highlighter.isDarkTheme(), dark);
        QSet<QRgb> colours;
        for (int t = 0; t < int(Token::Count); ++t)
            colours.insert(highlighter.format(Token(t)).foreground().color().rgb());
        QCOMPARE(colours.size(), qsizetype(Token::Count));
        // Operators and literals are also bold, so they stand out without colour.
        QCOMPARE(highlighter.format(Token::OperatorKey).fontWeight(), int(QFont::Bold));
        QCOMPARE(highlighter.format(Token::Literal).fontWeight(), int(QFont::Bold));
        QVERIFY(highlighter.format(Token::Key).fontWeight() != int(QFont::Bold));
    }
}

void tst_JsonHighlighter::stringsHandleEscapesAndStayStrings()
{
    // {"a\"b": "true \\", "c": "$not an operator"}
    const QString text = QStringLiteral("{\"a\\\"b\": \"true \\\\\", \"c\": \"$not an operator\"}");
    QTextDocument doc(text);
    JsonHighlighter highlighter(&doc);
    highlighter.rehighlight();
    const QTextBlock block = doc.firstBlock();

    const auto key = rangeAt(block, 1);
    QVERIFY(key);
    QCOMPARE(key->length, 6); // "a\"b" including the escaped quote
    QCOMPARE(key->format.foreground(), highlighter.format(Token::Key).foreground());

    const int valueStart = int(text.indexOf(QStringLiteral("\"true")));
    const auto value = rangeAt(block, valueStart);
    QVERIFY(value);
    QCOMPARE(value->length, 9); // "true \\" — a literal's name inside a string is a string
    QCOMPARE(value->format.foreground(), highlighter.format(Token::String).foreground());

    // A $-string that is a value, not a key, is a plain string.
    const int dollar = int(text.indexOf(QStringLiteral("\"$not")));
    const auto dollarValue = rangeAt(block, dollar);
    QVERIFY(dollarValue);
    QCOMPARE(dollarValue->format.foreground(), highlighter.format(Token::String).foreground());
}

void tst_JsonHighlighter::unterminatedStringRunsToLineEnd()
{
    QTextDocument doc(QStringLiteral("{\"open: 12, true"));
    JsonHighlighter highlighter(&doc);
    highlighter.rehighlight();
    const auto range = rangeAt(doc.firstBlock(), 1);
    QVERIFY(range);
    QCOMPARE(range->start + range->length, doc.firstBlock().length() - 1);
    QCOMPARE(range->format.foreground(), highlighter.format(Token::String).foreground());
    QCOMPARE(doc.firstBlock().layout()->formats().size(), 1);
}

void tst_JsonHighlighter::multiLineDocument()
{
    QTextDocument doc(
        QStringLiteral("{\n    \"$and\": [\n        {\"x\": -1},\n        false\n    ]\n}"));
    JsonHighlighter highlighter(&doc);
    highlighter.rehighlight();
    QTextBlock line = doc.findBlockByNumber(1);
    auto range = rangeAt(line, 4);
    QVERIFY(range);
    QCOMPARE(range->length, 6);
    QCOMPARE(range->format.foreground(), highlighter.format(Token::OperatorKey).foreground());
    line = doc.findBlockByNumber(2);
    range = rangeAt(line, 14);
    QVERIFY(range);
    QCOMPARE(range->length, 2);
    QCOMPARE(range->format.foreground(), highlighter.format(Token::Number).foreground());
    line = doc.findBlockByNumber(3);
    range = rangeAt(line, 8);
    QVERIFY(range);
    QCOMPARE(range->format.foreground(), highlighter.format(Token::Literal).foreground());
    QVERIFY(doc.findBlockByNumber(5).layout()->formats().isEmpty());
}

void tst_JsonHighlighter::coloursAreReadableOnBothThemes()
{
    QTextDocument doc;
    JsonHighlighter highlighter(&doc);
    const QColor lightBase(Qt::white);
    const QColor darkBase(0x1f, 0x21, 0x24); // ui/theme.cpp's Base colour
    for (int t = 0; t < int(Token::Count); ++t) {
        highlighter.setDarkTheme(false);
        const double light = contrast(highlighter.format(Token(t)).foreground().color(), lightBase);
        QVERIFY2(light >= 4.5,
                 qPrintable(QStringLiteral("token %1 on light: %2").arg(t).arg(light)));
        highlighter.setDarkTheme(true);
        const double dark = contrast(highlighter.format(Token(t)).foreground().color(), darkBase);
        QVERIFY2(dark >= 4.5, qPrintable(QStringLiteral("token %1 on dark: %2").arg(t).arg(dark)));
    }
}

void tst_JsonHighlighter::followsTheEditorPalette()
{
    QPlainTextEdit edit;
    QPalette light = edit.palette();
    light.setColor(QPalette::Base, Qt::white);
    edit.setPalette(light);
    JsonHighlighter *highlighter = JsonHighlighter::attach(&edit);
    QCOMPARE(highlighter->parent(), edit.document());
    QVERIFY(!highlighter->isDarkTheme());
    edit.setPlainText(QStringLiteral("{\"k\": 1}"));
    auto range = rangeAt(edit.document()->firstBlock(), 1);
    QVERIFY(range);
    const QColor lightKey = range->format.foreground().color();

    QPalette dark = edit.palette();
    dark.setColor(QPalette::Base, QColor(0x1f, 0x21, 0x24));
    edit.setPalette(dark);
    QVERIFY(highlighter->isDarkTheme());
    range = rangeAt(edit.document()->firstBlock(), 1);
    QVERIFY(range);
    QVERIFY(range->format.foreground().color() != lightKey);
    QCOMPARE(range->format.foreground(), highlighter->format(Token::Key).foreground());
}

QTEST_MAIN(tst_JsonHighlighter)
#include "tst_jsonhighlighter.moc"
