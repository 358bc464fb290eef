// One handler per invoke descriptor of the contract. Thin on purpose: the work is in services/.
import { REVIEW_PICK_REQUEST, type AppServices } from '../services/app-services.ts';
import type { Handlers } from './dispatcher.ts';

export function createHandlers(services: AppServices): Handlers {
  const { profiles, session, platform, vault, clients } = services;
  return {
    app: {
      info: () => services.appInfo(),
    },
    profiles: {
      list: () => profiles.state(),
      add: (input) => profiles.add(input),
      update: ({ id, patch }) => profiles.update(id, patch),
      remove: ({ id }) => services.removeProfile(id),
      activate: ({ id }) => profiles.activate(id),
      test: (target) => profiles.test(target),
    },
    session: {
      saved: () => session.saved(),
      login: (request) => session.login(request),
      logout: () => session.logout(),
      forget: () => session.forget(),
    },
    api: {
      call: (request) => clients.active().client.call(request),
    },
    platform: {
      status: () => platform.status(),
      restart: () => platform.restart(),
      stop: async () => {
        await platform.stop();
        return platform.status();
      },
    },
    vault: {
      status: () => vault.status(),
    },
    uploads: {
      pick: (request) => services.pickFiles(request),
      start: ({ path, feature, platform }) => services.uploads.start(path, { feature, platform }),
      cancel: ({ localId }) => services.uploads.cancel(localId),
      pause: ({ localId }) => services.uploads.pause(localId),
      resume: ({ localId }) => services.uploads.resume(localId),
      list: () => services.uploads.list(),
    },
    library: {
      list: (filter) => services.library.list(filter),
      download: (request) => services.library.download(request),
      retry: ({ id }) => services.library.retry(id),
      cancel: ({ id }) => services.library.cancel(id),
      verify: ({ id }) => services.library.verify(id),
      remove: ({ id }) => services.library.remove(id),
      openExternal: ({ id }) => services.library.openExternal(id),
      reveal: ({ id }) => services.library.reveal(id),
    },
    review: {
      open: (target) => services.openReview(target),
      pick: () => services.pickFiles(REVIEW_PICK_REQUEST),
    },
  };
}
