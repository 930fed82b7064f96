#pragma once

#include "service/core/requestlog.h"
#include "ui/pages/mcpclientconfig.h"

#include <QVector>
#include <QWidget>

class QLabel;
class QLineEdit;
class QMenu;
class QToolButton;
class QPushButton;
class QSpinBox;
class QTableView;
class QTimer;

namespace MemoryGraph::Ui {

class RequestLogModel;

/// The HTTP listener: where it binds, whether it runs, and a live log of served requests.
/// It only asks for start/stop through signals; the app layer owns the server and reports back
/// through the onServer*() slots, so this page never touches HTTP itself.
class ServerPage : public QWidget
{
    Q_OBJECT
public:
    enum class State { Stopped, Starting, Running, Stopping, Failed };

    explicit ServerPage(QWidget *parent = nullptr);
    ~ServerPage() override;

    /// The colour of a state's dot (green running, amber in between, red failed, grey stopped).
    static QString stateColor(State state);

    QString bindAddress() const;
    quint16 port() const;
    QString authMode() const { return m_authMode; }
    State state() const { return m_state; }
    /// One line for a status bar, e.g. "Listening on 127.0.0.1:8080".
    QString stateSummary() const;
    RequestLogModel *requestLogModel() const { return m_logModel; }
    QTableView *requestLogView() const { return m_logView; }
    /// Why the listener failed (State::Failed), else empty.
    QString stateDetail() const { return m_stateDetail; }
    /// http://host:port of the bind address and port shown, whether or not it listens.
    QString baseUrl() const;
    /// The MCP endpoint (http://host:port/mcp) while listening, else empty.
    QString mcpEndpoint() const;
    /// The address agents use (http://host:port) while listening, else empty.
    QString serviceUrl() const;
    /// Requests served since the page was created; Clear empties the log but not this count.
    qint64 requestsServed() const { return m_requestsServed; }
    /// What the client configurations name: endpoint, program, port, data folder, key.
    McpClientConfig::Target mcpTarget() const;
    /// "Copy client configuration": one action per client and transport.
    QMenu *mcpConfigMenu() const { return m_mcpMenu; }

public Q_SLOTS:
    void setBindAddress(const QString &address);
    void setPort(quint16 port);
    void setAuthMode(const QString &mode);
    /// The data folder, named in the stdio client configuration (empty: the default folder).
    void setDataDir(const QString &dataDir);

    void onServerStarted(const QString &address, quint16 port);
    void onServerStopped();
    void onServerFailed(const QString &reason);
    /// Safe to call at a high rate: entries are batched into the log a few times a second.
    void appendRequest(const MemoryGraph::RequestLogEntry &entry);
    void clearRequestLog();
    /// What the Start button does: asks to listen on the address and port shown. Only while
    /// stopped or failed.
    void startServer();
    /// What the Stop button does: asks to stop listening. Only while running.
    void stopServer();

Q_SIGNALS:
    void startRequested(const QString &address, quint16 port);
    void stopRequested();
    /// The listener state changed; `summary` is stateSummary().
    void stateChanged(const QString &summary);
    /// requestsServed() grew; emitted with the log's batches, a few times a second at most.
    void requestsServedChanged(qint64 total);
    /// What agents are told changed: the state, address, port, auth mode or data folder.
    void agentAddressChanged();

private:
    QWidget *createListenerGroup();
    QWidget *createLogGroup();
    void toggleServer();
    void setState(State state, const QString &detail = QString());
    void updateControls();
    void updateLoopbackHint();
    void flushPendingRequests();
    void updateLogSummary();
    void buildMcpMenu();

    State m_state = State::Stopped;
    QString m_stateDetail;
    QString m_authMode;

    QLineEdit *m_addressEdit = nullptr;
    QSpinBox *m_portSpin = nullptr;
    QLabel *m_authLabel = nullptr;
    QLabel *m_stateDot = nullptr;
    QLabel *m_stateLabel = nullptr;
    QLabel *m_urlLabel = nullptr;
    QLabel *m_mcpLabel = nullptr;
    QToolButton *m_mcpButton = nullptr;
    QMenu *m_mcpMenu = nullptr;
    QString m_dataDir;
    QLabel *m_hintLabel = nullptr;
    QPushButton *m_startStopButton = nullptr;

    RequestLogModel *m_logModel = nullptr;
    QTableView *m_logView = nullptr;
    QLabel *m_logSummary = nullptr;
    QVector<RequestLogEntry> m_pending;
    QTimer *m_flushTimer = nullptr;
    qint64 m_requestsServed = 0;
};

} // namespace MemoryGraph::Ui
