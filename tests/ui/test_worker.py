"""The UI's one background worker: jobs in the order given, results and errors back on the
main thread (through Kivy's Clock), nothing run once it is closed."""

import threading

from kivy.clock import Clock

from companion.errors import BadInput
from companion.ui.worker import Worker


def test_jobs_run_in_order_and_answer_on_the_main_thread():
    reported, answers, ran = [], [], []
    worker = Worker(reported.append)
    main = threading.current_thread()
    for n in range(5):
        worker.submit(lambda n=n: ran.append((n, threading.current_thread())) or n,
                      lambda r: answers.append((r, threading.current_thread())))
    def refused():
        raise BadInput("nothing to undo")

    worker.submit(refused)
    failed = []
    worker.submit(lambda: 1 / 0, None, failed.append)
    assert worker.wait(60) and not worker.busy
    assert answers == [] and reported == []  # nothing changes off the main thread
    Clock.tick()
    assert [n for n, _ in ran] == [0, 1, 2, 3, 4]
    assert all(t is not main for _, t in ran)
    assert answers == [(n, main) for n in range(5)]
    assert [str(e) for e in reported] == ["nothing to undo"]
    assert [type(e) for e in failed] == [ZeroDivisionError]
    worker.close()
    worker.submit(lambda: ran.append("late"))
    assert worker.wait(1) and "late" not in [n for n, _ in ran]
