// How the store's side effects talk to the user. The app passes the Blueprint toaster
// (app/toaster.ts); tests pass a recorder. Keeping it an interface keeps the store free of DOM.

export interface Notifier {
  success(message: string): void;
  warning(message: string): void;
  error(message: string): void;
}

export const silentNotifier: Notifier = {
  success() {},
  warning() {},
  error() {},
};
