import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

// No StrictMode: its development-only double effects would dispose the session's client (App.tsx) and open it again.
createRoot(document.getElementById('root')!).render(<App />);
