import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';

// i18n.ts loads the active language's boot catalogues before anything renders (top-level await); the console's
// layout loads the rest, with antd's and dayjs' locale (app/router.tsx).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
