import * as vscode from 'vscode';
import type { NotificationPort } from './notifications';

// The editor's side of the ask notifications: a progress notification, which
// an extension can end (a message notification it cannot), so an ask answered
// elsewhere leaves no live Approve behind.

export function vscodeNotificationPort(): NotificationPort {
  return {
    showUntil(text, until) {
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, cancellable: false },
        (progress) => {
          progress.report({ message: text });
          return until;
        },
      );
    },
    info: (text) => void vscode.window.showInformationMessage(text),
    warn: (text) => void vscode.window.showWarningMessage(text),
  };
}
