/** Full-height loading screen shown while the stored login state is checked (spec 2 Routes). */
export default function LoadingScreen() {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <p>正在加载应用...</p>
    </div>
  );
}
