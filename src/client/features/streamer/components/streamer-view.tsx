export function StreamerView() {
  return <h1 className="text-2xl font-bold">Streamer Interface</h1>;
}
