import { createContext, useContext } from 'react';

/**
 * What the signed-in token may do (GraphQL's `viewer`): pages and actions the token cannot perform are not
 * offered. The API enforces every scope anyway; this only keeps the console from offering a refusal.
 */
export interface ViewerState {
  /** Who is signed in, as the API names the token (a managed token's name, the person's name from the identity provider). */
  name: string;
  environment: string;
  environments: readonly string[];
  scopes: ReadonlySet<string>;
  signOut(): void;
  switchEnvironment(environment: string): void;
}

export const ViewerContext = createContext<ViewerState | null>(null);

export function useViewer(): ViewerState {
  const viewer = useContext(ViewerContext);
  if (!viewer) throw new Error('useViewer outside a signed-in console');
  return viewer;
}

export const useCan = (scope: string): boolean => useViewer().scopes.has(scope);
