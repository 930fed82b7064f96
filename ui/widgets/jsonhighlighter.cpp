#include "ui/widgets/jsonhighlighter.h"

#include <QEvent>
#include <QPlainTextEdit>

#include <algorithm>

namespace MemoryGraph::Ui {

namespace {

struct Palette
{
    QColor key;
    QColor operatorKey;
    QColor string;
    QColor number;
    QColor literal;
};

// Light: dark, saturated tones on white. Dark: light tones with enough contrast on the dark
// theme's #1f2124 base (all above 7:1 except the operator purple, which is also bold).
const Palette LightColours{QColor(0x1f, 0x4e, 0x99), QColor(0xa3, 0x16, 0x8a),
                           QColor(0x23, 0x7a, 0x36), QColor(0xb0, 0x52, 0x00),
                           QColor(0x00, 0x73, 0x80)};
const Palette DarkColours{QColor(0x86, 0xbd, 0xff), QColor(0xe8, 0x8b, 0xf5),
                          QColor(0xa5, 0xd9, 0x8a), QColor(0xf5, 0xb4, 0x61),
                          QColor(0x5f, 0xd7, 0xd7)};

/// The text is drawn on the editor's base colour, so that decides light or dark.
bool hasDarkBase(const QWidget *widget)
{
    return widget->palette().color(QPalette::Base).lightness() < 128;
}

bool isNumberStart(QChar c)
{
    return c.isDigit() || c == u'-';
}

/// Length of the JSON number starting at `from` (optional sign, digits, fraction, exponent).
qsizetype numberLength(const QString &text, qsizetype from)
{
    qsizetype i = from;
    const qsizetype n = text.size();
    if (i < n && text.at(i) == u'-')
        ++i;
    const qsizetype digitsStart = i;
    while (i < n && text.at(i).isDigit())
        ++i;
    if (i == digitsStart)
        return 0; // a lone minus
    if (i < n && text.at(i) == u'.') {
        qsizetype j = i + 1;
        while (j < n && text.at(j).isDigit())
            ++j;
        if (j > i + 1)
            i = j;
    }
    if (i < n && (text.at(i) == u'e' || text.at(i) == u'E')) {
        qsizetype j = i + 1;
        if (j < n && (text.at(j) == u'+' || text.at(j) == u'-'))
            ++j;
        const qsizetype expStart = j;
        while (j < n && text.at(j).isDigit())
            ++j;
        if (j > expStart)
            i = j;
    }
    return i - from;
}

} // namespace

JsonHighlighter::JsonHighlighter(QTextDocument *document) : QSyntaxHighlighter(document)
{
    updateFormats();
}

JsonHighlighter *JsonHighlighter::attach(QPlainTextEdit *editor)
{
    auto *highlighter = new JsonHighlighter(editor->document());
    highlighter->m_dark = hasDarkBase(editor);
    highlighter->updateFormats();
    highlighter->rehighlight();
    editor->installEventFilter(highlighter);
    return highlighter;
}

void JsonHighlighter::setDarkTheme(bool dark)
{
    if (dark == m_dark)
        return;
    m_dark = dark;
    updateFormats();
    rehighlight();
}

QTextCharFormat JsonHighlighter::format(Token token) const
{
    return m_formats[int(token)];
}

void JsonHighlighter::updateFormats()
{
    const Palette &p = m_dark ? DarkColours : LightColours;
    for (QTextCharFormat &f : m_formats)
        f = QTextCharFormat();
    m_formats[int(Token::Key)].setForeground(p.key);
    m_formats[int(Token::OperatorKey)].setForeground(p.operatorKey);
    m_formats[int(Token::OperatorKey)].setFontWeight(QFont::Bold);
    m_formats[int(Token::String)].setForeground(p.string);
    m_formats[int(Token::Number)].setForeground(p.number);
    m_formats[int(Token::Literal)].setForeground(p.literal);
    m_formats[int(Token::Literal)].setFontWeight(QFont::Bold);
}

void JsonHighlighter::highlightBlock(const QString &text)
{
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const QChar c = text.at(i);
        if (c == u'"') {
            // A string: find the closing quote, skipping escaped characters.
            qsizetype end = i + 1;
            while (end < n && text.at(end) != u'"')
                end += text.at(end) == u'\\' ? 2 : 1;
            end = std::min(end + 1, n);
            // A string followed by a colon is an object key.
            qsizetype next = end;
            while (next < n && text.at(next).isSpace())
                ++next;
            Token token = Token::String;
            if (next < n && text.at(next) == u':')
                token = (end - i > 2 && text.at(i + 1) == u'$') ? Token::OperatorKey : Token::Key;
            setFormat(int(i), int(end - i), m_formats[int(token)]);
            i = end;
            continue;
        }
        if (isNumberStart(c) && (i == 0 || !text.at(i - 1).isLetterOrNumber())) {
            const qsizetype length = numberLength(text, i);
            if (length > 0) {
                setFormat(int(i), int(length), m_formats[int(Token::Number)]);
                i += length;
                continue;
            }
        }
        if (c.isLetter()) {
            qsizetype end = i;
            while (end < n && text.at(end).isLetterOrNumber())
                ++end;
            const QStringView word = QStringView(text).mid(i, end - i);
            if (word == u"true" || word == u"false" || word == u"null")
                setFormat(int(i), int(end - i), m_formats[int(Token::Literal)]);
            i = end;
            continue;
        }
        ++i;
    }
}

bool JsonHighlighter::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        if (auto *widget = qobject_cast<QWidget *>(watched))
            setDarkTheme(hasDarkBase(widget));
    }
    return QSyntaxHighlighter::eventFilter(watched, event);
}

} // namespace MemoryGraph::Ui
