// The native open dialog for uploads (uploads:pick). Electron filters take bare extensions, so
// `.tar.gz` is offered as `gz`; the renderer checks the full extension of what comes back.
import { dialog, type BrowserWindow, type OpenDialogOptions } from 'electron';
import type { Static } from 'typebox';
import type { desktopContract } from '../../contract/ipc/desktop-contract.ts';

export type PickRequest = Static<typeof desktopContract.uploads.pick.request>;

function dialogOptions(request: PickRequest): OpenDialogOptions {
  const properties: OpenDialogOptions['properties'] = [request.folders ? 'openDirectory' : 'openFile'];
  if (request.multiple) properties.push('multiSelections');
  const extensions = [...new Set((request.extensions ?? []).map((ext) => ext.split('.').filter(Boolean).pop()!.toLowerCase()))];
  return {
    title: request.folders ? '选择文件夹' : '选择文件',
    properties,
    filters: request.folders || extensions.length === 0 ? [] : [{ name: request.filterName ?? '支持的文件', extensions }, { name: '所有文件', extensions: ['*'] }],
  };
}

/** Paths chosen by the user; empty when the dialog was dismissed. */
export async function pickFiles(window: BrowserWindow | null, request: PickRequest): Promise<string[]> {
  const options = dialogOptions(request);
  const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  return result.canceled ? [] : result.filePaths;
}
