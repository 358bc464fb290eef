// Renderer entry: Blueprint styles, the theme that follows the system, the store, the session
// check and the hash router. Without window.desktop only an explanatory error screen is shown.
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import './styles/app.css';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { BlueprintProvider } from '@blueprintjs/core';
import { desktop, hasDesktop } from './platform/desktop.ts';
import { DesktopMissing } from './platform/DesktopMissing.tsx';
import { createAppStore } from './app/store.ts';
import { sessionActions } from './app/sessionSlice.ts';
import { uiActions } from './app/uiSlice.ts';
import { checkSession } from './app/sessionFlows.ts';
import { toastNotifier } from './app/toaster.ts';
import { applyTheme, systemPrefersDark, watchSystemTheme } from './app/theme.ts';
import { useAppSelector } from './app/hooks.ts';
import { createAppRouter } from './app/router/AppRouter.tsx';
import { zh } from './i18n/zh-CN.ts';

function ThemeSync() {
  const dark = useAppSelector((s) => s.ui.dark);
  useEffect(() => applyTheme(dark), [dark]);
  return null;
}

const container = document.getElementById('root');
if (!container) throw new Error(zh.app.rootMissing);
const root = createRoot(container);
applyTheme(systemPrefersDark());

if (!hasDesktop()) {
  watchSystemTheme(applyTheme);
  root.render(
    <StrictMode>
      <DesktopMissing />
    </StrictMode>,
  );
} else {
  const store = createAppStore({ notifier: toastNotifier, dark: systemPrefersDark() });
  watchSystemTheme((dark) => store.dispatch(uiActions.systemThemeChanged({ dark })));
  // Main saw a code-3 answer of its own (e.g. while refreshing the CSRF token).
  desktop().session.expired(({ message }) => store.dispatch(sessionActions.expired({ message })));
  void store.dispatch(checkSession());
  const router = createAppRouter();
  root.render(
    <StrictMode>
      <Provider store={store}>
        <BlueprintProvider>
          <ThemeSync />
          <RouterProvider router={router} />
        </BlueprintProvider>
      </Provider>
    </StrictMode>,
  );
}
