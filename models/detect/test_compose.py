"""Unit tests of the design generator and the compositor (python3 -m unittest, from this folder)."""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compose  # noqa: E402
import designs as D  # noqa: E402


class Designs(unittest.TestCase):
    def test_there_are_at_least_500_designs_in_families_with_some_held_out(self):
        all_designs = D.all_designs()
        self.assertGreaterEqual(len(all_designs), 500)
        self.assertEqual(len({d.name for d in all_designs}), len(all_designs))
        self.assertTrue(D.HELD_OUT)
        self.assertFalse(set(D.HELD_OUT) & set(D.TRAIN_FAMILIES))
        self.assertFalse(set(D.TUNING_FAMILIES) & (set(D.TRAIN_FAMILIES) | set(D.HELD_OUT)))
        self.assertFalse(set(D.IDENTIFIER_FAMILIES)
                         & (set(D.TRAIN_FAMILIES) | set(D.HELD_OUT) | set(D.TUNING_FAMILIES)))
        self.assertEqual(set(D.HELD_OUT) | set(D.TRAIN_FAMILIES) | set(D.TUNING_FAMILIES)
                         | set(D.IDENTIFIER_FAMILIES), set(D.FAMILIES))

    def test_dot_counts_siblings_share_their_top_and_left_border(self):
        for index in range(12):
            d = D.design("dot_counts", index)
            faces = [D.render(d, k).astype(int) for k in range(12)]
            b = int(round(d.params["border_mm"] * 5.0))
            for k in range(1, 12):
                differ = np.abs(faces[0] - faces[k]).max(axis=2) > 0
                self.assertFalse(differ[:b].any() or differ[:, :b].any(), (index, k))
                self.assertTrue(0.0 < differ.mean() < 0.25, (index, k, differ.mean()))

    def test_count_marks_siblings_differ_only_in_their_marks_and_numeral(self):
        d = D.design("count_marks", 2)
        a, b = D.render(d, 4).astype(int), D.render(d, 5).astype(int)
        differ = np.abs(a - b).max(axis=2) > 0
        # The title band and the frame are the design's: the same pixels on every sibling.
        self.assertFalse(differ[: int(0.1 * a.shape[0])].any())
        self.assertTrue(0.0 < differ.mean() < 0.1)

    def test_a_design_renders_the_same_pixels_every_time(self):
        d = D.design("white_border", 3)
        a, b = D.render(d, 5), D.render(D.design("white_border", 3), 5)
        self.assertTrue(np.array_equal(a, b))

    def test_cards_of_one_design_share_a_size_and_differ_in_pixels(self):
        for family in D.FAMILIES:
            d = D.design(family, 1)
            faces = [D.render(d, k) for k in range(4)]
            self.assertEqual({f.shape for f in faces}, {faces[0].shape}, family)
            for i in range(1, 4):
                # Count siblings differ only in a few small marks.
                floor = 0.5 if family in D.IDENTIFIER_FAMILIES else 2.0
                self.assertGreater(np.abs(faces[0].astype(int) - faces[i].astype(int)).mean(), floor, family)

    def test_sizes_are_published_card_sizes(self):
        sizes = {(d.width_mm, d.height_mm) for d in D.all_designs()}
        self.assertTrue(sizes <= set(D.ASPECTS))
        self.assertEqual(len(sizes), len(D.ASPECTS))
        self.assertEqual({(d.width_mm, d.height_mm) for d in D.all_designs(["tarot_tall"])}, {(70.0, 120.0)})

    def test_rounded_corners_are_transparent(self):
        d = next(x for x in D.all_designs() if x.radius_mm >= 3)
        a = D.card_alpha(d, 5.0)
        self.assertEqual(a[0, 0], 0)
        self.assertEqual(a[a.shape[0] // 2, a.shape[1] // 2], 255)

    def test_an_unknown_family_is_refused(self):
        with self.assertRaises(ValueError):
            D.design("no_such_family", 0)


class Compositor(unittest.TestCase):
    def test_truth_corners_start_at_the_cards_own_top_left(self):
        # An overhead camera at yaw 0 sees an upright card upright: its first corner is the top-left
        # one, and the corners go clockwise on screen (y down). Turned half round, it is bottom-right.
        rng = np.random.default_rng(3)
        d = D.design("white_border", 0)
        for angle, first in [(0.0, "top-left"), (np.pi, "bottom-right")]:
            card = compose.Laid(d, 0, (0.0, 0.0), angle)
            H, _ = compose.camera_homography(rng, card.corners_mm(), 640, 480, yaw=0.0, tilt=0.0)
            q = compose.apply_h(H, card.corners_mm())
            s = q.sum(axis=1)
            self.assertEqual(int(np.argmin(s) if first == "top-left" else np.argmax(s)), 0, first)
            area = 0.5 * sum(q[i, 0] * q[(i + 1) % 4, 1] - q[(i + 1) % 4, 0] * q[i, 1] for i in range(4))
            self.assertGreater(area, 0)

    def test_labels_cover_the_visible_cards_and_cores_lie_inside_them(self):
        sc = compose.render_scene(12345, 640, 480)
        self.assertEqual(sc.ids.shape, (480, 640))
        self.assertTrue(((sc.core > 0) <= (sc.ids > 0)).all(), "every core pixel is on a card")
        for i, c in enumerate(sc.cards):
            if c.findable:
                self.assertGreater(c.visible, 0.97)

    def test_a_scene_is_the_same_from_the_same_seed(self):
        a = compose.render_scene(777, 320, 240)
        b = compose.render_scene(777, 320, 240)
        self.assertTrue(np.array_equal(a.image, b.image))
        self.assertEqual([c.corners for c in a.cards], [c.corners for c in b.cards])

    def test_every_table_renders(self):
        rng = np.random.default_rng(0)
        for kind in compose.TABLES:
            t = compose.table_texture(rng, kind, 64, 48)
            self.assertEqual(t.shape, (48, 64, 3), kind)
        with self.assertRaises(ValueError):
            compose.table_texture(rng, "lava", 8, 8)


if __name__ == "__main__":
    unittest.main()
