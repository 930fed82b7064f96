#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class QPlainTextEdit;

namespace MemoryGraph::Ui {

/// Colours JSON text: object keys, $-operator keys ("$and", "$in", ...), string values,
/// numbers and the literals true / false / null each get their own format. JSON strings never
/// span lines, so every block is tokenised on its own; an unterminated string runs to the end
/// of its line. Two colour sets: one for light palettes, one readable on the dark theme.
class JsonHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    enum class Token { Key, OperatorKey, String, Number, Literal, Count };

    explicit JsonHighlighter(QTextDocument *document);

    /// Highlights `editor`'s document and follows the editor's palette (light or dark) from now
    /// on. The highlighter belongs to the document.
    static JsonHighlighter *attach(QPlainTextEdit *editor);

    /// Picks the colour set for a dark (true) or light background and re-highlights.
    void setDarkTheme(bool dark);
    bool isDarkTheme() const { return m_dark; }

    /// The format used for a token kind with the current colour set.
    QTextCharFormat format(Token token) const;

protected:
    void highlightBlock(const QString &text) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateFormats();

    bool m_dark = false;
    QTextCharFormat m_formats[int(Token::Count)];
};

} // namespace MemoryGraph::Ui
