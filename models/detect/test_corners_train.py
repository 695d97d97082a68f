"""The corner refiner's geometry: patches are cut along the card's sides with its inside to the
bottom right, an undisturbed corner's target is the patch's centre, and a disturbed quad's target
points back at the true corner (what Rust's vision::detector::corners undoes)."""

import unittest

import cv2
import numpy as np

import corners_train as C


def white_card_on_black():
    img = np.zeros((120, 100, 3), np.uint8)
    img[20:90, 25:75] = 255
    quad = np.array([[25.0, 20.0], [75.0, 20.0], [75.0, 90.0], [25.0, 90.0]])
    return img, quad


class CornerGeometry(unittest.TestCase):
    def test_every_corners_patch_has_the_card_to_its_bottom_right(self):
        img, quad = white_card_on_black()
        a, b = C.PATCH // 4, 3 * C.PATCH // 4
        for k in range(4):
            p = C.patch(img, C.corner_transform(quad, k))[:, :, 0]
            self.assertEqual((p[a, a], p[a, b], p[b, a]), (0, 0, 0), f"corner {k}")
            self.assertEqual(p[b, b], 255, f"corner {k}")

    def test_an_undisturbed_corner_is_at_the_patch_centre(self):
        _, quad = white_card_on_black()
        for k in range(4):
            np.testing.assert_allclose(C.target(quad, k, quad[k]), [0, 0], atol=1e-9)

    def test_the_target_maps_back_to_the_true_corner(self):
        _, quad = white_card_on_black()
        d = C.disturb(np.random.default_rng(5), quad)
        for k in range(4):
            t = C.target(d, k, quad[k]) * C.REACH
            unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
            h = cv2.getPerspectiveTransform(unit, np.roll(d, -k, axis=0).astype(np.float32))
            p = h @ np.array([t[0], t[1], 1.0])
            np.testing.assert_allclose(p[:2] / p[2], quad[k], atol=1e-3)

    def test_a_disturbed_corner_moves_at_most_the_limit(self):
        _, quad = white_card_on_black()
        side = np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)])
        rng = np.random.default_rng(9)
        for _ in range(200):
            d = C.disturb(rng, quad)
            self.assertLessEqual(np.linalg.norm(d - quad, axis=1).max(), C.MAX_SHIFT * side + 1e-6)

    def test_quads_are_put_clockwise_on_screen(self):
        _, quad = white_card_on_black()
        np.testing.assert_array_equal(C.clockwise(quad[::-1]), quad[::-1][::-1])
        np.testing.assert_array_equal(C.clockwise(quad), quad)


if __name__ == "__main__":
    unittest.main()
