"""Unit tests of the 风声 table compositor (export_message.py)."""

import os
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_message as X  # noqa: E402


def fake_faces(folder):
    ids = [f"{k}-{c}" for k in ("lock", "burn", "decode") for c in ("red", "blue", "black")]
    for n, card in enumerate(ids):
        cv2.imwrite(os.path.join(folder, f"{card}.png"), np.full((88, 63, 3), 40 + 12 * n, np.uint8))
    for s in range(1, 10):
        cv2.imwrite(os.path.join(folder, f"seat-{s}.png"), np.full((88, 63, 3), 250, np.uint8))
    cv2.imwrite(os.path.join(folder, "deck-sheet-01.png"), np.zeros((8, 8, 3), np.uint8))
    cv2.imwrite(os.path.join(folder, "seat-cards-sheet.png"), np.zeros((8, 8, 3), np.uint8))


class MessageTables(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.faces = cls.tmp.name
        fake_faces(cls.faces)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_only_intelligence_faces_are_dealt(self):
        ids = X.face_ids(self.faces)
        self.assertEqual(len(ids), 9)
        self.assertFalse(any(i.startswith(("seat", "deck-sheet")) for i in ids))

    def test_each_row_faces_its_player_and_its_seat_card_lies_beyond_it(self):
        for seed in range(20):
            seats = 3 + seed % 7
            cards, seat_cards = X.lay_table(np.random.default_rng(seed), X.face_ids(self.faces), seats)
            self.assertEqual([s for s, _ in seat_cards], list(range(seats)))
            for _, seat, q, _ in cards:
                centre = q.mean(axis=0)
                up = (q[0] + q[1]) / 2 - (q[3] + q[2]) / 2
                # The card's top points toward the table's middle, as its player reads it.
                self.assertLess(float(np.dot(up, centre)), 0.0)
                nearest = min(range(seats), key=lambda s: np.linalg.norm(seat_cards[s][1].mean(axis=0) - centre))
                self.assertEqual(nearest, seat, "a card lies nearest its own seat card")
                seat_centre = seat_cards[seat][1].mean(axis=0)
                self.assertGreater(np.linalg.norm(seat_centre), np.linalg.norm(centre) - 1e-6)

    def test_only_a_card_under_a_later_one_of_its_row_is_overlapped(self):
        a = X.card_corners((0.0, 0.0), (0.0, 1.0))
        b = X.card_corners((30.0, 0.0), (0.0, 1.0))
        far = X.card_corners((300.0, 0.0), (0.0, 1.0))
        self.assertEqual(X.overlapped([("x", 0, a, True), ("y", 0, b, True)]), [True, False])
        self.assertEqual(X.overlapped([("x", 0, a, False), ("y", 1, b, False)]), [False, False])
        self.assertEqual(X.overlapped([("x", 0, a, False), ("y", 0, far, False)]), [False, False])

    def test_a_scene_is_seeded_and_its_truth_is_in_the_frame(self):
        with tempfile.TemporaryDirectory() as out:
            os.makedirs(os.path.join(out, "scenes"))
            scene = X.scene_job((699200, out, self.faces))
            self.assertEqual(scene, X.scene_job((699200, out, self.faces)), "same seed, same scene")
            self.assertTrue(os.path.exists(os.path.join(out, scene["image"])))
            self.assertTrue(3 <= scene["seats"] <= 9)
            self.assertEqual(len(scene["seat_cards"]), scene["seats"])
            for c in scene["cards"]:
                if not c["covered"]:
                    pts = np.array(c["corners"])
                    self.assertTrue(np.all(pts >= 0) and np.all(pts < [X.WIDTH, X.HEIGHT]))


if __name__ == "__main__":
    unittest.main()
