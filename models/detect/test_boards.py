"""Unit tests of the Blitz board compositor (export_boards.py)."""

import os
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_boards as B  # noqa: E402


def fake_faces(folder):
    ids = [f"front-{i}" for i in range(1, 6)]
    for side in ("us", "uk", "ss", "wh"):
        ids += [f"{side}-u{i:02}" for i in range(1, 13)]
        ids += [f"{side}-r{i:02}" for i in range(1, 4)] + [f"{side}-f01", f"{side}-s01"]
    for k, card in enumerate(ids):
        face = np.full((88, 63, 3), 40 + k % 200, np.uint8)
        cv2.imwrite(os.path.join(folder, f"{card}.png"), face)
    cv2.imwrite(os.path.join(folder, "sheet-01.png"), np.zeros((8, 8, 3), np.uint8))


class Boards(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.faces = cls.tmp.name
        fake_faces(cls.faces)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_a_board_is_a_legal_looking_blitz_position(self):
        for seed in range(20):
            laid = B.lay_board(np.random.default_rng(seed), self.faces, 4)
            cells = [cell for _, _, _, _, cell, under in laid if under is None]
            self.assertEqual(len(cells), len(set(cells)), "one card a cell, stacks aside")
            for card, _, turns, _, (col, row), under in laid:
                self.assertIn(col, range(4))
                if card.startswith("front-"):
                    self.assertEqual((row, turns % 2), (B.FRONT_ROW, 1), "front line sideways on row 3")
                elif under is None:
                    allied = card[:2] in B.ALLIED
                    self.assertEqual(row < B.FRONT_ROW, allied, card)
                    if turns % 2 == 0:
                        self.assertEqual(turns, 0 if allied else 2, "a player's cards face that player")
                self.assertNotIn(card[3], "s", "skill cards are not laid on the grid")

    def test_loose_boards_keep_one_spacing_a_scene_and_their_cells(self):
        spacings = []
        for seed in range(10):
            laid = B.lay_board(np.random.default_rng(seed), self.faces, 4, "loose")
            fronts = sorted((cell[0], c) for card, c, _, _, cell, under in laid
                            if card.startswith("front-"))
            gaps = [b[1][0] - a[1][0] for a, b in zip(fronts, fronts[1:])]
            spacings.append(np.mean(gaps))
            for g in gaps:
                self.assertTrue(95 - 16 <= g <= 125 + 16, f"seed {seed}: gap {g}")
            self.assertLess(np.ptp(gaps), 2 * 16 + 1e-9, "one spacing a scene, jittered")
        self.assertGreater(np.ptp(spacings), 10, "the spacing is drawn per scene")

    def test_corners_are_the_cards_own_and_turn_clockwise(self):
        c = B.corners_mm((0.0, 0.0), 0, 0.0)
        self.assertTrue(np.allclose(c[0], [-31.5, 44.0]), "top-left, top away from the Allied side")
        top = B.corners_mm((0.0, 0.0), 1, 0.0)[:2].mean(axis=0)
        self.assertTrue(np.allclose(top, [44.0, 0.0]), "tapped right: its top to the Allied right")

    def test_a_scene_has_its_truth_inside_the_frame(self):
        with tempfile.TemporaryDirectory() as out:
            os.makedirs(os.path.join(out, "scenes"))
            scene = B.scene_job((910000, out, self.faces, 4, False, "printed"))
            self.assertTrue(os.path.exists(os.path.join(out, scene["image"])))
            self.assertIn(scene["placement"], B.PLACEMENTS)
            shown = [c for c in scene["cards"] if not c["covered"]]
            self.assertGreater(len(shown), 10)
            for c in shown:
                pts = np.array(c["corners"])
                self.assertTrue(np.all(pts >= 0) and np.all(pts < [B.WIDTH, B.HEIGHT]))
            again = B.scene_job((910000, out, self.faces, 4, False, "printed"))
            self.assertEqual(scene, again, "same seed, same scene")


if __name__ == "__main__":
    unittest.main()
