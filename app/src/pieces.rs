//! The piece images (the cburnett set), embedded in the binary and uploaded as textures.

use egui::{ColorImage, Context, TextureHandle, TextureOptions};
use shakmaty::{Color, Piece, Role};

/// One texture per piece.
pub struct PieceTextures {
    textures: Vec<TextureHandle>,
}

const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

macro_rules! png {
    ($name:literal) => {
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/", $name, ".png"))
            .as_slice()
    };
}

/// PNG bytes for white then black, in the order of `ROLES`.
const PNGS: [&[u8]; 12] = [
    png!("wP"),
    png!("wN"),
    png!("wB"),
    png!("wR"),
    png!("wQ"),
    png!("wK"),
    png!("bP"),
    png!("bN"),
    png!("bB"),
    png!("bR"),
    png!("bQ"),
    png!("bK"),
];

impl PieceTextures {
    /// Decodes the embedded images and uploads them.
    #[must_use]
    pub fn load(ctx: &Context) -> Self {
        let options = TextureOptions::LINEAR.with_mipmap_mode(Some(egui::TextureFilter::Linear));
        let textures = PNGS
            .iter()
            .enumerate()
            .map(|(i, bytes)| {
                let image = decode(bytes);
                ctx.load_texture(format!("piece-{i}"), image, options)
            })
            .collect();
        PieceTextures { textures }
    }

    /// The texture of a piece.
    pub fn get(&self, piece: Piece) -> &TextureHandle {
        let role = ROLES.iter().position(|&r| r == piece.role).unwrap_or(0);
        let index = role + if piece.color == Color::White { 0 } else { 6 };
        &self.textures[index]
    }
}

/// Decodes an embedded PNG; the images are part of the build, so a failure is a build
/// defect, shown as a transparent square rather than a crash.
fn decode(bytes: &[u8]) -> ColorImage {
    match image::load_from_memory_with_format(bytes, image::ImageFormat::Png) {
        Ok(img) => {
            let rgba = img.to_rgba8();
            let size = [rgba.width() as usize, rgba.height() as usize];
            ColorImage::from_rgba_unmultiplied(size, rgba.as_raw())
        }
        Err(_) => ColorImage::filled([1, 1], egui::Color32::TRANSPARENT),
    }
}
