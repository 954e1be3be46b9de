import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { currentLanguage } from './shared/i18n.ts';
import { loadUiLocale } from './shared/uiLocale.ts';
import { App } from './App.tsx';

// antd's and dayjs' locale of the first language, before anything renders (i18n.ts loads its catalogues first).
await loadUiLocale(currentLanguage());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
