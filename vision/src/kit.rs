//! The print-and-play kit as one PDF at true scale: a set-up sheet, card fronts nine to an A4 page
//! with cut marks, the matching backs on the following page mirrored for duplex printing (flip on
//! the long edge), and each mat tiled over A4 pages with overlap lines and each tile's place.

use crate::VisionError;
use opencv::core::{Mat, Rect, Vector};
use opencv::prelude::*;
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect as PdfRect, Ref, Str};
use serde::Serialize;
use std::path::Path;

pub const A4_MM: [f64; 2] = [210.0, 297.0];
pub const LETTER_MM: [f64; 2] = [215.9, 279.4];

/// The paper the kit is printed on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Paper {
    #[default]
    A4,
    /// US Letter.
    Letter,
}

impl Paper {
    /// Width and height in mm, portrait.
    pub fn mm(self) -> [f64; 2] {
        match self {
            Paper::A4 => A4_MM,
            Paper::Letter => LETTER_MM,
        }
    }
}
/// Cards a page: three across, three down, touching, so one cut serves two cards.
const COLS: usize = 3;
const ROWS: usize = 3;
/// Cut marks run this far outside the block of cards.
const CUT_MARK_MM: f64 = 6.0;
/// A mat tile's picture covers the page but this margin, which most printers cannot reach.
const TILE_MARGIN_MM: f64 = 10.0;
/// Neighbouring tiles share this much of the mat: the tile on the right or below is laid over it.
pub const TILE_OVERLAP_MM: f64 = 10.0;
const JPEG_QUALITY: i32 = 92;

fn pt(mm: f64) -> f32 {
    (mm * 72.0 / 25.4) as f32
}

/// One card of the kit: its front, which back it has, and how many copies the game needs.
pub struct KitCard {
    pub id: String,
    pub front: Mat,
    /// Index into [`Kit::backs`].
    pub back: usize,
    pub copies: usize,
}

/// A mat drawn at `px_per_mm`.
pub struct KitMat {
    pub name: String,
    pub image: Mat,
    pub px_per_mm: f64,
}

pub struct Kit {
    /// The card's printed size in mm (width, height), every card alike.
    pub card_mm: [f64; 2],
    pub cards: Vec<KitCard>,
    pub backs: Vec<Mat>,
    pub mats: Vec<KitMat>,
    /// The set-up sheet's pages, each an A4 page's picture (any resolution with A4's proportions).
    pub setup: Vec<Mat>,
    /// The card reference: every card's name, numbers and rules text, pages like `setup`.
    pub reference: Vec<Mat>,
}

/// What one page of the written PDF holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "page")]
pub enum KitPage {
    Setup,
    Reference,
    /// Card ids in reading order (a copy of a card once per copy).
    Fronts {
        cards: Vec<String>,
    },
    /// The backs of the page before, each behind its front when printed on both sides.
    Backs {
        cards: Vec<String>,
    },
    /// A tile of a mat: its column and row among `cols` × `rows` tiles (1-based, from top-left).
    MatTile {
        mat: String,
        col: usize,
        row: usize,
        cols: usize,
        rows: usize,
    },
}

/// Pages are assembled here, then written in one go.
struct Writer {
    pdf: Pdf,
    next: i32,
    pages: Vec<Ref>,
    tree: Ref,
    font: Ref,
    /// Pictures already written, by a key of the caller's: a card printed twice is stored once.
    written: std::collections::HashMap<String, Ref>,
    /// The page's width and height in mm.
    page: [f64; 2],
}

impl Writer {
    fn new(paper: Paper) -> Writer {
        let mut w = Writer {
            page: paper.mm(),
            pdf: Pdf::new(),
            next: 1,
            pages: Vec::new(),
            tree: Ref::new(1),
            font: Ref::new(2),
            written: Default::default(),
        };
        w.next = 3;
        w.pdf.type1_font(w.font).base_font(Name(b"Helvetica"));
        w
    }

    fn id(&mut self) -> Ref {
        let r = Ref::new(self.next);
        self.next += 1;
        r
    }

    /// Adds `image` (BGR) as a JPEG image object.
    fn image(&mut self, image: &Mat) -> Result<Ref, VisionError> {
        let mut jpeg = Vector::<u8>::new();
        let params = Vector::from_slice(&[opencv::imgcodecs::IMWRITE_JPEG_QUALITY, JPEG_QUALITY]);
        opencv::imgcodecs::imencode(".jpg", image, &mut jpeg, &params)?;
        let id = self.id();
        let mut x = self.pdf.image_xobject(id, jpeg.as_slice());
        x.filter(Filter::DctDecode);
        x.width(image.cols());
        x.height(image.rows());
        x.color_space().device_rgb();
        x.bits_per_component(8);
        x.finish();
        Ok(id)
    }

    /// [`Writer::image`] once for each `key`.
    fn image_once(&mut self, key: &str, image: &Mat) -> Result<Ref, VisionError> {
        if let Some(r) = self.written.get(key) {
            return Ok(*r);
        }
        let r = self.image(image)?;
        self.written.insert(key.to_string(), r);
        Ok(r)
    }

    /// Adds a page drawing `content`, with `images` named Im0, Im1, ….
    fn page(&mut self, content: Content, images: &[Ref]) {
        let (page, body) = (self.id(), self.id());
        let size = self.page;
        let mut p = self.pdf.page(page);
        p.media_box(PdfRect::new(0.0, 0.0, pt(size[0]), pt(size[1])));
        p.parent(self.tree);
        p.contents(body);
        let mut resources = p.resources();
        resources.fonts().pair(Name(b"F1"), self.font);
        let mut objects = resources.x_objects();
        for (i, r) in images.iter().enumerate() {
            objects.pair(Name(format!("Im{i}").as_bytes()), *r);
        }
        objects.finish();
        resources.finish();
        p.finish();
        self.pdf.stream(body, &content.finish());
        self.pages.push(page);
    }

    fn finish(mut self) -> Vec<u8> {
        let catalog = self.id();
        self.pdf.catalog(catalog).pages(self.tree);
        let n = self.pages.len() as i32;
        self.pdf
            .pages(self.tree)
            .kids(self.pages.iter().copied())
            .count(n);
        self.pdf.finish()
    }
}

/// Draws image `Im{index}` over the rectangle `x, y, w, h` (mm from the top-left of a page
/// `page_h` mm high).
fn place(c: &mut Content, page_h: f64, index: usize, [x, y, w, h]: [f64; 4]) {
    c.save_state();
    c.transform([pt(w), 0.0, 0.0, pt(h), pt(x), pt(page_h - y - h)]);
    c.x_object(Name(format!("Im{index}").as_bytes()));
    c.restore_state();
}

fn line(c: &mut Content, page_h: f64, a: [f64; 2], b: [f64; 2]) {
    c.move_to(pt(a[0]), pt(page_h - a[1]));
    c.line_to(pt(b[0]), pt(page_h - b[1]));
    c.stroke();
}

/// Text in Helvetica (ASCII; anything else is left out) at `x, y` mm from the top-left.
fn text(c: &mut Content, page_h: f64, [x, y]: [f64; 2], size: f32, s: &str) {
    let ascii: String = s
        .chars()
        .filter(|ch| ch.is_ascii() && !ch.is_control())
        .collect();
    c.begin_text();
    c.set_font(Name(b"F1"), size);
    c.next_line(pt(x), pt(page_h - y));
    c.show(Str(ascii.as_bytes()));
    c.end_text();
}

/// The block of cards' top-left on a `page`, in mm.
fn block_origin(page: [f64; 2], card_mm: [f64; 2]) -> [f64; 2] {
    [
        (page[0] - COLS as f64 * card_mm[0]) / 2.0,
        (page[1] - ROWS as f64 * card_mm[1]) / 2.0,
    ]
}

fn cut_marks(c: &mut Content, page: [f64; 2], card_mm: [f64; 2]) {
    let [x0, y0] = block_origin(page, card_mm);
    let line = |c: &mut Content, a, b| line(c, page[1], a, b);
    let (x1, y1) = (x0 + COLS as f64 * card_mm[0], y0 + ROWS as f64 * card_mm[1]);
    c.set_line_width(0.5);
    for i in 0..=COLS {
        let x = x0 + i as f64 * card_mm[0];
        line(c, [x, y0 - CUT_MARK_MM - 1.0], [x, y0 - 1.0]);
        line(c, [x, y1 + 1.0], [x, y1 + CUT_MARK_MM + 1.0]);
    }
    for j in 0..=ROWS {
        let y = y0 + j as f64 * card_mm[1];
        line(c, [x0 - CUT_MARK_MM - 1.0, y], [x0 - 1.0, y]);
        line(c, [x1 + 1.0, y], [x1 + CUT_MARK_MM + 1.0, y]);
    }
}

/// One page of up to nine cards: `faces[i]` at place `i`, or mirrored left to right for the backs.
fn card_page(
    w: &mut Writer,
    faces: &[(String, &Mat)],
    card_mm: [f64; 2],
    mirrored: bool,
    caption: &str,
) -> Result<(), VisionError> {
    let mut c = Content::new();
    let mut images = Vec::new();
    let page = w.page;
    let [x0, y0] = block_origin(page, card_mm);
    for (i, (key, face)) in faces.iter().enumerate() {
        let (col, row) = (i % COLS, i / COLS);
        let col = if mirrored { COLS - 1 - col } else { col };
        images.push(w.image_once(key, face)?);
        let (x, y) = (x0 + col as f64 * card_mm[0], y0 + row as f64 * card_mm[1]);
        place(&mut c, page[1], i, [x, y, card_mm[0], card_mm[1]]);
    }
    cut_marks(&mut c, page, card_mm);
    text(&mut c, page[1], [10.0, page[1] - 6.0], 8.0, caption);
    w.page(c, &images);
    Ok(())
}

/// The tiles' top-left corners along one side of a mat `length` mm long.
fn tile_starts(length: f64, page: f64) -> Vec<f64> {
    let step = page - TILE_OVERLAP_MM;
    let mut starts = vec![0.0];
    while starts[starts.len() - 1] + page < length {
        starts.push(starts[starts.len() - 1] + step);
    }
    starts
}

fn mat_pages(w: &mut Writer, mat: &KitMat, out: &mut Vec<KitPage>) -> Result<(), VisionError> {
    let page = w.page;
    let area = [
        page[0] - 2.0 * TILE_MARGIN_MM,
        page[1] - 2.0 * TILE_MARGIN_MM,
    ];
    let size = [
        mat.image.cols() as f64 / mat.px_per_mm,
        mat.image.rows() as f64 / mat.px_per_mm,
    ];
    let (xs, ys) = (tile_starts(size[0], area[0]), tile_starts(size[1], area[1]));
    for (row, &y) in ys.iter().enumerate() {
        for (col, &x) in xs.iter().enumerate() {
            let wmm = area[0].min(size[0] - x);
            let hmm = area[1].min(size[1] - y);
            let px = |mm: f64| (mm * mat.px_per_mm).round() as i32;
            let r = Rect::new(
                px(x),
                px(y),
                px(wmm).min(mat.image.cols() - px(x)),
                px(hmm).min(mat.image.rows() - px(y)),
            );
            if r.width <= 0 || r.height <= 0 {
                continue;
            }
            let tile = mat.image.roi(r)?.try_clone()?;
            let mut c = Content::new();
            let image = w.image(&tile)?;
            place(
                &mut c,
                page[1],
                0,
                [TILE_MARGIN_MM, TILE_MARGIN_MM, wmm, hmm],
            );
            let line = |c: &mut Content, a, b| line(c, page[1], a, b);
            // Where the neighbour on the left and the one above end: lay this tile over them
            // up to these lines.
            c.set_line_width(0.4);
            c.set_dash_pattern([3.0, 2.0], 0.0);
            if col > 0 {
                let lx = TILE_MARGIN_MM + TILE_OVERLAP_MM;
                line(&mut c, [lx, TILE_MARGIN_MM], [lx, TILE_MARGIN_MM + hmm]);
            }
            if row > 0 {
                let ly = TILE_MARGIN_MM + TILE_OVERLAP_MM;
                line(&mut c, [TILE_MARGIN_MM, ly], [TILE_MARGIN_MM + wmm, ly]);
            }
            let tag = format!(
                "mat {} - tile row {} of {}, column {} of {}: cut at the picture's edge; lay it over \
                 the tiles to its left and above up to the dashed lines ({TILE_OVERLAP_MM:.0} mm)",
                mat.name,
                row + 1,
                ys.len(),
                col + 1,
                xs.len()
            );
            text(&mut c, page[1], [TILE_MARGIN_MM, page[1] - 4.0], 7.0, &tag);
            w.page(c, &[image]);
            out.push(KitPage::MatTile {
                mat: mat.name.clone(),
                col: col + 1,
                row: row + 1,
                cols: xs.len(),
                rows: ys.len(),
            });
        }
    }
    Ok(())
}

/// A page that is one picture (drawn for A4), as large as the page holds it, centred.
fn full_page(w: &mut Writer, picture: &Mat) -> Result<(), VisionError> {
    let image = w.image(picture)?;
    let mut c = Content::new();
    let page = w.page;
    let scale = (page[0] / A4_MM[0]).min(page[1] / A4_MM[1]);
    let (pw, ph) = (A4_MM[0] * scale, A4_MM[1] * scale);
    let at = [(page[0] - pw) / 2.0, (page[1] - ph) / 2.0, pw, ph];
    place(&mut c, page[1], 0, at);
    w.page(c, &[image]);
    Ok(())
}

/// Writes the kit to `path` as one PDF on `paper`; returns what each page holds.
pub fn write_pdf(kit: &Kit, path: &Path, paper: Paper) -> Result<Vec<KitPage>, VisionError> {
    let mut w = Writer::new(paper);
    let mut pages = Vec::new();
    for page in &kit.setup {
        full_page(&mut w, page)?;
        pages.push(KitPage::Setup);
    }

    let copies: Vec<&KitCard> = kit
        .cards
        .iter()
        .flat_map(|k| std::iter::repeat_n(k, k.copies))
        .collect();
    let sheets = copies.len().div_ceil(COLS * ROWS);
    for (n, chunk) in copies.chunks(COLS * ROWS).enumerate() {
        let ids: Vec<String> = chunk.iter().map(|k| k.id.clone()).collect();
        let fronts: Vec<(String, &Mat)> = chunk
            .iter()
            .map(|k| (format!("front {}", k.id), &k.front))
            .collect();
        let backs = chunk
            .iter()
            .map(|k| match kit.backs.get(k.back) {
                Some(b) => Ok((format!("back {}", k.back), b)),
                None => Err(VisionError::Data {
                    path: path.to_path_buf(),
                    reason: format!(
                        "card {} has back {}, but the kit has {}",
                        k.id,
                        k.back,
                        kit.backs.len()
                    ),
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let caption = format!("fronts {} of {sheets}: cut along the marks", n + 1);
        card_page(&mut w, &fronts, kit.card_mm, false, &caption)?;
        pages.push(KitPage::Fronts { cards: ids.clone() });
        let caption = format!(
            "backs {} of {sheets}: print on the back of the page before (flip on the long edge)",
            n + 1
        );
        card_page(&mut w, &backs, kit.card_mm, true, &caption)?;
        pages.push(KitPage::Backs { cards: ids });
    }
    for mat in &kit.mats {
        mat_pages(&mut w, mat, &mut pages)?;
    }
    for page in &kit.reference {
        full_page(&mut w, page)?;
        pages.push(KitPage::Reference);
    }
    crate::files::write_atomic(path, &w.finish())?;
    Ok(pages)
}

/// A card back: a field of `bgr` inside a white border, a double frame, the game's name and the
/// deck's name in the middle (drawn by code, at the faces' 300 dpi).
pub fn plain_back(game: &str, deck: &str, bgr: [u8; 3]) -> Result<Mat, VisionError> {
    use crate::face::{FACE_H, FACE_W, PX_PER_MM};
    use opencv::core::{Scalar, CV_8UC3};
    use opencv::imgproc;
    let colour = Scalar::new(bgr[0] as f64, bgr[1] as f64, bgr[2] as f64, 0.0);
    let mut back = Mat::new_rows_cols_with_default(FACE_H, FACE_W, CV_8UC3, Scalar::all(255.0))?;
    let inset = (3.0 * PX_PER_MM) as i32;
    let field = Rect::new(inset, inset, FACE_W - 2 * inset, FACE_H - 2 * inset);
    imgproc::rectangle(&mut back, field, colour, -1, imgproc::LINE_8, 0)?;
    let frame = (2.5 * PX_PER_MM) as i32;
    let inner = Rect::new(
        field.x + frame,
        field.y + frame,
        field.width - 2 * frame,
        field.height - 2 * frame,
    );
    imgproc::rectangle(&mut back, inner, Scalar::all(255.0), 6, imgproc::LINE_AA, 0)?;
    let cx = FACE_W as f32 / 2.0;
    let width = inner.width as f32 * 0.85;
    crate::font::draw_text_centered(
        &mut back,
        game,
        cx,
        FACE_H as f32 * 0.47,
        90.0,
        width,
        [255; 3],
    )?;
    crate::font::draw_text_centered(
        &mut back,
        deck,
        cx,
        FACE_H as f32 * 0.60,
        60.0,
        width,
        [255; 3],
    )?;
    Ok(back)
}

/// Text pages' resolution: enough for 8 pt print.
const TEXT_PAGE_DPI: f64 = 150.0;
const TEXT_MARGIN_MM: f64 = 15.0;
const TITLE_PX: f32 = 56.0;
const HEADING_PX: f32 = 36.0;
const BODY_PX: f32 = 26.0;
const LINE_SPACING: f32 = 1.4;
/// A text card's body starts at this size and shrinks until it fits.
const TEXT_CARD_BODY_PX: f32 = 40.0;
const TEXT_CARD_MIN_PX: f32 = 20.0;

/// `text` broken into lines no wider than `width` px at `size` px: at spaces where there are
/// any, anywhere between two Chinese characters, and inside a word only if it alone is too wide.
pub fn wrap(text: &str, size: f32, width: f32) -> Result<Vec<String>, VisionError> {
    let mut lines = Vec::new();
    let mut line = String::new();
    // Pieces that may not be split: a word with the space before it, or one CJK character.
    let mut pieces: Vec<String> = Vec::new();
    for ch in text.chars() {
        let joins = match pieces.last() {
            Some(last) => {
                !ch.is_whitespace()
                    && ch.is_ascii()
                    && last.chars().last().is_some_and(|c| c.is_ascii())
            }
            None => false,
        };
        if joins {
            if let Some(last) = pieces.last_mut() {
                last.push(ch);
            }
        } else {
            pieces.push(ch.to_string());
        }
    }
    for piece in pieces {
        let candidate = format!("{line}{piece}");
        if line.is_empty() || crate::font::text_width(&candidate, size)? <= width {
            line = candidate;
            continue;
        }
        lines.push(line.trim_end().to_string());
        line = piece.trim_start().to_string();
        // A single word wider than the line is cut where it overflows.
        while crate::font::text_width(&line, size)? > width && line.chars().count() > 1 {
            let mut head = String::new();
            for c in line.chars() {
                if !head.is_empty() && crate::font::text_width(&format!("{head}{c}"), size)? > width
                {
                    break;
                }
                head.push(c);
            }
            line = line[head.len()..].to_string();
            lines.push(head);
        }
    }
    if !line.trim().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    Ok(lines)
}

/// Pages of text on A4 at 150 dpi: `title` on top of the first, then `lines`, wrapped to the
/// margins, onto as many pages as they need. A line starting with "## " is a heading; an empty
/// line is a gap.
pub fn text_pages(title: &str, lines: &[String]) -> Result<Vec<Mat>, VisionError> {
    use opencv::core::{Scalar, CV_8UC3};
    let ppm = TEXT_PAGE_DPI / 25.4;
    let (w, h) = ((A4_MM[0] * ppm) as i32, (A4_MM[1] * ppm) as i32);
    let blank = || Mat::new_rows_cols_with_default(h, w, CV_8UC3, Scalar::all(255.0));
    let x = (TEXT_MARGIN_MM * ppm) as f32;
    let width = w as f32 - 2.0 * x;
    let bottom = h as f32 - (TEXT_MARGIN_MM * ppm) as f32;
    let mut pages = vec![blank()?];
    let mut y = (TEXT_MARGIN_MM * ppm) as f32 + TITLE_PX;
    if let Some(page) = pages.last_mut() {
        crate::font::draw_text(page, title, x, y, TITLE_PX, [30, 30, 30])?;
    }
    y += TITLE_PX * 0.5;
    for l in lines {
        let (text, size, colour, gap) = match l.strip_prefix("## ") {
            Some(t) => (t, HEADING_PX, [120, 60, 20], HEADING_PX * 0.6),
            None => (l.as_str(), BODY_PX, [30, 30, 30], 0.0),
        };
        if text.is_empty() {
            y += BODY_PX * 0.6;
            continue;
        }
        y += gap;
        for part in wrap(text, size, width)? {
            y += size * LINE_SPACING;
            if y > bottom {
                pages.push(blank()?);
                y = (TEXT_MARGIN_MM * ppm) as f32 + size;
            }
            if let Some(page) = pages.last_mut() {
                crate::font::draw_text(page, &part, x, y, size, colour)?;
            }
        }
    }
    Ok(pages)
}

/// A card of text at the faces' size and resolution, for cards the camera need not tell apart
/// (identity and character cards): a band of `band` (BGR) with `title` and `subtitle`, and
/// `body` wrapped below it.
pub fn text_card(
    band: [u8; 3],
    title: &str,
    subtitle: &str,
    body: &[String],
) -> Result<Mat, VisionError> {
    use crate::face::{FACE_H, FACE_W, PX_PER_MM};
    use opencv::core::{Scalar, CV_8UC3};
    use opencv::imgproc;
    let mut card = Mat::new_rows_cols_with_default(FACE_H, FACE_W, CV_8UC3, Scalar::all(255.0))?;
    let inset = (3.0 * PX_PER_MM) as i32;
    let band_h = (30.0 * PX_PER_MM) as i32;
    let colour = Scalar::new(band[0] as f64, band[1] as f64, band[2] as f64, 0.0);
    let outline = Rect::new(inset, inset, FACE_W - 2 * inset, FACE_H - 2 * inset);
    imgproc::rectangle(&mut card, outline, colour, 6, imgproc::LINE_AA, 0)?;
    imgproc::rectangle(
        &mut card,
        Rect::new(inset, inset, FACE_W - 2 * inset, band_h),
        colour,
        -1,
        imgproc::LINE_8,
        0,
    )?;
    let cx = FACE_W as f32 / 2.0;
    let width = (FACE_W - 4 * inset) as f32;
    let top = inset as f32;
    crate::font::draw_text_centered(
        &mut card,
        title,
        cx,
        top + band_h as f32 * 0.55,
        110.0,
        width,
        [255; 3],
    )?;
    crate::font::draw_text_centered(
        &mut card,
        subtitle,
        cx,
        top + band_h as f32 * 0.88,
        48.0,
        width,
        [255; 3],
    )?;
    let x = (2 * inset) as f32;
    let room = (FACE_H - 2 * inset) as f32 - band_h as f32 - 40.0;
    // The largest body size at which every line fits on the card.
    let mut size = TEXT_CARD_BODY_PX;
    let mut lines = Vec::new();
    while size >= TEXT_CARD_MIN_PX {
        lines = body
            .iter()
            .map(|p| wrap(p, size, width))
            .collect::<Result<Vec<_>, _>>()?;
        let count: usize = lines.iter().map(Vec::len).sum();
        let height = count as f32 * size * LINE_SPACING + body.len() as f32 * size * 0.5;
        if height <= room {
            break;
        }
        size -= 2.0;
    }
    let mut y = top + band_h as f32 + 20.0;
    for para in lines {
        for line in para {
            y += size * LINE_SPACING;
            crate::font::draw_text(&mut card, &line, x, y, size, [30, 30, 30])?;
        }
        y += size * 0.5;
    }
    Ok(card)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cover_the_mat_with_the_overlap() {
        let s = tile_starts(580.0, 190.0);
        assert_eq!(s, vec![0.0, 180.0, 360.0, 540.0]);
        assert!(s[s.len() - 1] + 190.0 >= 580.0);
        assert_eq!(tile_starts(150.0, 190.0), vec![0.0]);
    }

    #[test]
    fn wrapping_keeps_words_and_every_character() {
        let text = "Have 2 red and 2 blue intelligences in front of you 面前有红情报和蓝情报各两张";
        let lines = wrap(text, 26.0, 200.0).expect("wrap");
        assert!(lines.len() > 2, "{lines:?}");
        for l in &lines {
            assert!(
                crate::font::text_width(l, 26.0).expect("width") <= 200.0,
                "{l}"
            );
        }
        let joined: String = lines
            .concat()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let want: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(joined, want);
        assert!(
            lines
                .iter()
                .any(|l| l.ends_with("blue") || l.contains("blue ")),
            "{lines:?}"
        );
        assert_eq!(wrap("", 26.0, 200.0).expect("wrap"), vec![String::new()]);
    }

    #[test]
    fn a_text_cards_body_shrinks_to_stay_on_the_card() {
        use crate::face::{FACE_H, FACE_W, PX_PER_MM};
        let body: Vec<String> = (0..10)
            .map(|i| format!("line {i}: Have 2 red and 2 blue intelligences in front of you"))
            .collect();
        let card = text_card([50, 70, 85], "#3", "R# 2", &body).expect("card");
        let inset = (3.0 * PX_PER_MM) as i32;
        // Between the last text and the outline at the foot: nothing drawn.
        let foot = card
            .roi(Rect::new(
                2 * inset,
                FACE_H - inset - 25,
                FACE_W - 4 * inset,
                15,
            ))
            .expect("roi");
        let mut min = 0.0;
        opencv::core::min_max_loc(
            &foot,
            Some(&mut min),
            None,
            None,
            None,
            &opencv::core::no_array(),
        )
        .expect("min");
        assert_eq!(min, 255.0, "text ran onto the card's foot");
    }

    #[test]
    fn long_text_runs_onto_more_pages() {
        let lines: Vec<String> = (0..200).map(|i| format!("line {i}")).collect();
        let pages = text_pages("t", &lines).expect("pages");
        assert!(pages.len() >= 3, "{}", pages.len());
        assert_eq!(text_pages("t", &lines[..3]).expect("pages").len(), 1);
    }

    #[test]
    fn the_block_of_cards_is_centred_on_the_page() {
        let [x, y] = block_origin(A4_MM, [63.0, 88.0]);
        assert!((x - 10.5).abs() < 1e-9 && (y - 16.5).abs() < 1e-9);
        let [x, y] = block_origin(LETTER_MM, [63.0, 88.0]);
        assert!((x - 13.45).abs() < 1e-9 && (y - 7.7).abs() < 1e-9);
    }
}
