#pragma once

#include "ui/pages/mcpclientconfig.h"
#include "ui/pages/serverpage.h"

#include <QWidget>

class QComboBox;
class QFrame;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace MemoryGraph::Ui {

/// The first page of an empty store: the address agents connect to (and whether the listener
/// is up), ready-to-paste client snippets (MCP for Claude Desktop, Claude Code, Cursor and VS
/// Code; curl for plain HTTP), and two ways to start with data: the sample memories, or an
/// import when the window offers one.
///
/// It never leaves on its own: when memories arrive (samples, an agent writing over HTTP) a
/// banner says so and offers the Memory and Graph pages. The window feeds it the listener
/// (setListener, setClientTarget) and the store's size (setStoredNodes); the page only asks
/// for actions through its signals.
class WelcomePage : public QWidget
{
    Q_OBJECT
public:
    /// The snippet choices, in the order of the agent list.
    enum class Agent { ClaudeDesktop, ClaudeCode, Cursor, VsCode, Curl };

    explicit WelcomePage(QWidget *parent = nullptr);

    /// The listener's state, its address (http://host:port) and why it failed, if it did.
    void setListener(ServerPage::State state, const QString &baseUrl, const QString &failure);
    /// What the MCP snippets name (endpoint, program, data folder, whether a key is needed).
    void setClientTarget(const McpClientConfig::Target &target);
    /// Nodes in the whole store; -1 when unknown. Data after an empty store shows the banner.
    void setStoredNodes(qint64 nodes);
    /// Sample memories are being written (the button waits) or done.
    void setLoadingSamples(bool loading);
    /// Shows the Import button (hidden until the window has an import to offer).
    void setImportAvailable(bool available);

    QString addressText() const;
    QString listenerText() const;
    QString snippetText() const;
    void selectAgent(Agent agent, McpClientConfig::Transport transport);
    bool isBannerShown() const;
    QString bannerText() const;
    /// The button Enter presses: Browse once memories are stored, else Load sample memories.
    QPushButton *defaultButton() const;

Q_SIGNALS:
    void loadSamplesRequested();
    void importRequested();
    void browseRequested();
    void graphRequested();
    void serverPageRequested();

protected:
    void showEvent(QShowEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QWidget *createBanner();
    QWidget *createAddressBox();
    QWidget *createConnectBox();
    QWidget *createStartBox();
    void chainTabOrder();
    void updateSnippet();
    void updateDefaultButton();
    void applyBannerStyle();
    void copySnippet();

    ServerPage::State m_state = ServerPage::State::Stopped;
    QString m_baseUrl;
    McpClientConfig::Target m_target;
    qint64 m_storedNodes = -1;
    bool m_sawEmptyStore = false;

    QFrame *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    QPushButton *m_browseButton = nullptr;
    QPushButton *m_graphButton = nullptr;

    QLabel *m_addressLabel = nullptr;
    QLabel *m_stateDot = nullptr;
    QLabel *m_stateLabel = nullptr;
    QPushButton *m_copyAddressButton = nullptr;
    QPushButton *m_serverButton = nullptr;

    QComboBox *m_agentCombo = nullptr;
    QComboBox *m_transportCombo = nullptr;
    QLabel *m_destinationLabel = nullptr;
    QPlainTextEdit *m_snippet = nullptr;
    QPushButton *m_copySnippetButton = nullptr;
    QLabel *m_copiedLabel = nullptr;

    QPushButton *m_samplesButton = nullptr;
    QPushButton *m_importButton = nullptr;
    QLabel *m_importText = nullptr;
};

} // namespace MemoryGraph::Ui
