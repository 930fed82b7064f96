; Memory Graph's additions to the NSIS installer that CPack generates (cmake/PackagingNsis.cmake
; includes this file ahead of the installer's pages):
;  - the finish page starts Memory Graph as the signed-in user (not elevated like the
;    installer) and offers "Start Memory Graph when Windows starts", the HKCU Run value that
;    the app's own "Start at login" setting reads and writes;
;  - the uninstaller's first page asks whether to remove the user's data, unticked: memories
;    survive an uninstall (and the uninstall that runs before an upgrade) unless asked for.

!include "nsDialogs.nsh"
!include "LogicLib.nsh"

!define MEMORYGRAPH_EXE "$INSTDIR\bin\memorygraph.exe"
!define MEMORYGRAPH_RUN_KEY "Software\Microsoft\Windows\CurrentVersion\Run"
!define MEMORYGRAPH_RUN_VALUE "Memory Graph"
!define MEMORYGRAPH_APP_PATHS "Software\Microsoft\Windows\CurrentVersion\App Paths\memorygraph.exe"

;--------------------------------
; Finish page

!define MUI_FINISHPAGE_RUN
!define MUI_FINISHPAGE_RUN_TEXT "Start Memory Graph now"
!define MUI_FINISHPAGE_RUN_FUNCTION MemoryGraphLaunch
!define MUI_FINISHPAGE_SHOWREADME
!define MUI_FINISHPAGE_SHOWREADME_TEXT "Start Memory Graph when Windows starts"
!define MUI_FINISHPAGE_SHOWREADME_NOTCHECKED
!define MUI_FINISHPAGE_SHOWREADME_FUNCTION MemoryGraphStartWithWindows

Function MemoryGraphLaunch
  ; Through Explorer, so the program runs as the user and not elevated.
  Exec '"$WINDIR\explorer.exe" "${MEMORYGRAPH_EXE}"'
FunctionEnd

Function MemoryGraphStartWithWindows
  WriteRegStr HKCU "${MEMORYGRAPH_RUN_KEY}" "${MEMORYGRAPH_RUN_VALUE}" '"${MEMORYGRAPH_EXE}" --minimized'
FunctionEnd

; End of the installer's main section: "memorygraph" in the Run dialog and for ShellExecute.
Function MemoryGraphRegister
  WriteRegStr SHCTX "${MEMORYGRAPH_APP_PATHS}" "" "${MEMORYGRAPH_EXE}"
FunctionEnd

;--------------------------------
; Uninstaller: keep or remove the data

Var MemoryGraphDataDir
Var MemoryGraphRemoveDataBox
Var MemoryGraphRemoveData

UninstPage custom un.MemoryGraphDataPage un.MemoryGraphDataPageLeave

Function un.MemoryGraphDataPage
  ; The default data folder: Qt's AppDataLocation of the user running the uninstaller.
  ReadEnvStr $MemoryGraphDataDir APPDATA
  ${If} $MemoryGraphDataDir == ""
    Abort
  ${EndIf}
  StrCpy $MemoryGraphDataDir "$MemoryGraphDataDir\memorygraph"
  ${IfNot} ${FileExists} "$MemoryGraphDataDir\*.*"
    Abort ; nothing to keep or remove: no page
  ${EndIf}
  !insertmacro MUI_HEADER_TEXT "Your Memory Graph data" "Your memories are kept unless you tick the box."
  nsDialogs::Create 1018
  Pop $0
  ${NSD_CreateLabel} 0 0 100% 40u "The memories of every agent (the database and its indexes) are in$\r$\n$MemoryGraphDataDir$\r$\n$\r$\nThey stay there after the uninstall, so a new installation finds them again."
  Pop $0
  ${NSD_CreateCheckbox} 0 48u 100% 12u "&Remove my data as well (this cannot be undone)"
  Pop $MemoryGraphRemoveDataBox
  nsDialogs::Show
FunctionEnd

Function un.MemoryGraphDataPageLeave
  ${NSD_GetState} $MemoryGraphRemoveDataBox $MemoryGraphRemoveData
FunctionEnd

; Start of the uninstaller's section, before the files go.
Function un.MemoryGraphUnregister
  DeleteRegValue HKCU "${MEMORYGRAPH_RUN_KEY}" "${MEMORYGRAPH_RUN_VALUE}"
  DeleteRegKey SHCTX "${MEMORYGRAPH_APP_PATHS}"
  ${If} $MemoryGraphRemoveData == ${BST_CHECKED}
  ${AndIf} $MemoryGraphDataDir != ""
    RMDir /r "$MemoryGraphDataDir"
  ${EndIf}
FunctionEnd
