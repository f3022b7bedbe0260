"""How the load bench prints: one table row, a pass/fail mark, a ``Verdict`` per target.

A helper of ``server_load.py`` and its section modules (``load_flood.py``, ``load_watchers.py``,
``load_halfopen.py``), not a script.
"""

from __future__ import annotations

from dataclasses import dataclass

from load_run import RunResult, percentile

__all__ = ["Verdict", "mark", "row", "delay_row", "diagnostics", "stall_list", "CLIENT_BOUND_WARNING", "OTHER_LOAD_WARNING"]

CLIENT_BOUND_WARNING = 0.9  # CPUs per client process above which the clients may limit the rate
OTHER_LOAD_WARNING = 0.25   # CPUs used by other processes during a run above which a warning is printed


@dataclass(frozen=True)
class Verdict:
    """One target: what, the value measured, the target, met or not."""

    label: str
    value: str
    target: str
    ok: bool


def mark(ok: bool) -> str:
    """A pass/fail mark."""
    return "PASS" if ok else "FAIL"


def row(label: str, value: str, target: str = "", verdict: str = "") -> None:
    """Print one table row."""
    print(f"  {label:<60} {value:>18}   {target:<10} {verdict}".rstrip())


def delay_row(result: RunResult) -> None:
    """The row of the players' added delay (p50 / p99 / max) and their timeouts."""
    row("players' added delay p50 / p99 / max; timeouts",
        f"{percentile(result.added_all_ms, 50):.1f} / {percentile(result.added_all_ms, 99):.1f} / "
        f"{max(result.added_all_ms, default=float('nan')):.1f} ms; {result.timeouts}")


def diagnostics(result: RunResult, indent: str = "") -> None:
    """Rows that explain a run: window, CPU, loop lag, big frames, errors, problems."""
    name = f"{indent}{result.backend}"
    if result.failed:
        for problem in result.problems:
            print(f"    !! {result.backend}: {problem}")
        return
    row(f"{name}: games ended / steps (client-sent steps)",
        f"{result.games_over} / {result.steps} ({result.client_steps})")
    row(f"{name}: games' window / game_start spread", f"{result.window_s:.2f} s / {result.start_spread_s:.2f} s")
    row(f"{name}: CPU in window, {result.backend} / clients / other processes",
        f"{result.backend_cpu:.2f} / {result.client_cpu:.2f} / {result.other_cpu:.2f}")
    if result.other_cpu > OTHER_LOAD_WARNING:
        print(f"    !! {result.backend}: other processes used {result.other_cpu:.2f} CPUs during the games: "
              "the figures are disturbed (run on an idle machine)")
    per_client = result.client_cpu / max(1, result.client_procs)
    if per_client >= CLIENT_BOUND_WARNING:
        print(f"    !! {result.backend}: each client process used {per_client:.2f} CPUs: the clients may be the "
              "bottleneck (try --client-procs 2)")
    if len(result.thread_cpu) > 1:
        row(f"{name}: CPU in window by thread",
            ", ".join(f"{k} {v:.2f}" for k, v in sorted(result.thread_cpu.items(), key=lambda kv: -kv[1])))
    if result.backend == "server":
        lag = result.backend_lag
        if lag.get("n"):
            row(f"{name}: event loop lag p50 / p99 / max (10 ms probe)",
                f"{lag['p50']:.1f} / {lag['p99']:.1f} / {lag['max']:.1f} ms")
        if result.backend_stalls:
            row(f"{name}: loop stalls >= 50 ms: count, worst (s into window: ms)",
                f"{len(result.backend_stalls)}, {stall_list(result.backend_stalls)}")
        if result.gc_count:
            gen2 = [p for p in result.gc_pauses if p[1] == 2]
            row(f"{name}: GC collections / gen 2 / longest pause",
                f"{result.gc_count} / {len(gen2)} / {max((p[2] for p in result.gc_pauses), default=0.0):.0f} ms")
        row(f"{name}: big frames to clients (standings...)", f"{result.big_frames:,} = {result.big_bytes / 1e6:,.1f} MB")
    client_lag = result.client_lag_ms
    if client_lag:
        row(f"{indent}clients: loop lag p99 / max (10 ms probe)",
            f"{percentile(client_lag, 99):.1f} / {max(client_lag):.1f} ms")
    if result.client_stalls:
        row(f"{indent}clients: loop stalls >= 50 ms: count, worst", f"{len(result.client_stalls)}, "
            f"{stall_list(result.client_stalls)}")
    if result.errors:
        row(f"{name}: error frames / client exceptions", ", ".join(f"{k} {v}" for k, v in sorted(result.errors.items())))
    if result.unmatched_rows or result.other_violations or result.totals_mismatch:
        row(f"{name}: log rows unmatched / other violations / total mismatches",
            f"{result.unmatched_rows} / {result.other_violations} / {result.totals_mismatch}")
    for note in result.notes:
        print(f"    note: {result.backend}: {note}")
    for problem in result.problems:
        print(f"    !! {result.backend}: {problem}")


def stall_list(stalls: list[tuple[float, float]], count: int = 3) -> str:
    """The worst ``count`` stalls as '+12.3s 140ms' items, in time order."""
    worst = sorted(sorted(stalls, key=lambda s: -s[1])[:count])
    return ", ".join(f"+{t:.1f}s {ms:.0f}ms" for t, ms in worst)
