// Pure UI state: the theme that follows the system setting.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface UiState {
  /** Follows `prefers-color-scheme`; applied to <body> as Blueprint's dark class. */
  dark: boolean;
}

export const initialUiState = (dark = false): UiState => ({ dark });

export const uiSlice = createSlice({
  name: 'ui',
  initialState: initialUiState(),
  reducers: {
    systemThemeChanged(state, action: PayloadAction<{ dark: boolean }>) {
      state.dark = action.payload.dark;
    },
  },
});

export const uiActions = uiSlice.actions;
