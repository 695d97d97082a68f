"""Unit tests of the Duel table compositor (export_duel.py)."""

import os
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_duel as X  # noqa: E402


def fake_faces(folder):
    ids = [f"{f}-{i:02}" for f in ("wei", "shu") for i in range(1, 9)] + ["wei-land", "shu-land", "back"]
    for k, card in enumerate(ids):
        cv2.imwrite(os.path.join(folder, f"{card}.png"), np.full((88, 63, 3), 40 + 9 * k, np.uint8))
    cv2.imwrite(os.path.join(folder, "mat-duel-2x5.png"), np.full((38, 68, 3), 230, np.uint8))
    cv2.imwrite(os.path.join(folder, "sheet-01.png"), np.zeros((8, 8, 3), np.uint8))


class DuelTables(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.faces = cls.tmp.name
        fake_faces(cls.faces)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_a_table_has_one_unit_a_slot_facing_its_player(self):
        for seed in range(30):
            for spacing in ("printed", "loose"):
                laid = X.lay_table(np.random.default_rng(seed), self.faces, spacing)
                slots = [(p["side"], p["slot"]) for *_, p, _ in laid if p["zone"] == "slot"]
                self.assertEqual(len(slots), len(set(slots)))
                for card, (x, y), turns, _, place, tapped in laid:
                    near = place["side"] == "near"
                    self.assertEqual(tapped, turns % 2 == 1)
                    if not tapped:
                        self.assertEqual(turns, 0 if near else 2, "a player's cards face that player")
                    if place["zone"] == "slot":
                        self.assertNotIn(card, ("back", "wei-land", "shu-land"))
                        self.assertEqual(y < X.PITCH_MM, near, "near row below the middle line")
                    else:
                        self.assertEqual(y < 0 if near else y > 2 * X.PITCH_MM, True, "strips outside the rows")

    def test_a_scene_is_seeded_and_its_truth_is_in_the_frame(self):
        with tempfile.TemporaryDirectory() as out:
            os.makedirs(os.path.join(out, "scenes"))
            scene = X.scene_job((699100, out, self.faces))
            self.assertEqual(scene, X.scene_job((699100, out, self.faces)), "same seed, same scene")
            self.assertTrue(os.path.exists(os.path.join(out, scene["image"])))
            self.assertAlmostEqual(float(np.linalg.norm(scene["near_direction"])), 1.0, places=6)
            for c in scene["cards"]:
                if not c["covered"]:
                    pts = np.array(c["corners"])
                    self.assertTrue(np.all(pts >= 0) and np.all(pts < [X.B.WIDTH, X.B.HEIGHT]))

    def test_the_camera_sees_the_edge_nearest_it_largest_at_the_bottom(self):
        pts = np.array([[0, -100], [500, -100], [500, 300], [0, 300]], float)
        for yaw, nearest in ((0.0, (0, 1)), (180.0, (2, 3))):
            H, _ = X.compose.camera_homography(np.random.default_rng(3), pts, 1280, 720,
                                               yaw=np.radians(yaw), tilt=np.radians(40), fill=0.9)
            p = X.compose.apply_h(H, pts)
            near = p[list(nearest)]
            far = p[[i for i in range(4) if i not in nearest]]
            self.assertGreater(near[:, 1].mean(), far[:, 1].mean(), f"yaw {yaw}: nearest edge lowest")
            self.assertGreater(np.ptp(near[:, 0]), np.ptp(far[:, 0]), f"yaw {yaw}: nearest edge largest")
            H, _ = X.compose.camera_homography(np.random.default_rng(3), pts, 1280, 720,
                                               yaw=np.radians(yaw), tilt=np.radians(40), fill=0.9,
                                               depth_mirrored=True)
            p = X.compose.apply_h(H, pts)
            self.assertLess(np.ptp(p[list(nearest)][:, 0]), np.ptp(near[:, 0]), "mirrored: the other way")

if __name__ == "__main__":
    unittest.main()
