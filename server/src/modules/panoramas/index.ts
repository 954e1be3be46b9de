// The panoramas module exposes nothing to other modules: app.ts registers its routes.
export {};
