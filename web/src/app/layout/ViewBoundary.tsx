import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { Button } from 'antd';
import i18n from '../../shared/i18n.ts';

// Shown only when a screen fails: loaded then (with its illustrations), not with the console's first screen.
const Result = lazy(() => import('antd/es/result'));

interface State {
  error: Error | null;
}

/** Keeps a failing screen from taking the whole console down; offers to reload the screen. */
export class ViewBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('screen failed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <Suspense fallback={null}>
        <Result
          status="error"
          title={i18n.t('common:view.failed')}
          subTitle={this.state.error.message}
          extra={
            <Button type="primary" onClick={() => this.setState({ error: null })}>
              {i18n.t('common:action.retry')}
            </Button>
          }
        />
      </Suspense>
    );
  }
}
